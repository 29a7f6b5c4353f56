package io.lockstep.core.client;

import java.util.Locale;

/**
 * The state the server reports for a label ({@code GET /api/{db}/get_load_state},
 * docs/protocol.md#labels-and-label-state, #the-emulators-state-tables). Naming trap kept from StarRocks:
 * {@link #PREPARE} = open (after begin), {@link #PREPARED} = pre-committed.
 */
public enum LabelState {
    UNKNOWN, PREPARE, PREPARED, COMMITTED, VISIBLE, ABORTED;

    /** Parses a state name case-insensitively; an unrecognised name maps to {@link #UNKNOWN}. */
    public static LabelState parse(String name) {
        if (name == null) {
            return UNKNOWN;
        }
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return UNKNOWN;
        }
    }

    /** COMMITTED or VISIBLE: the data is (or will become) visible. */
    public boolean isCommitted() {
        return this == COMMITTED || this == VISIBLE;
    }
}
