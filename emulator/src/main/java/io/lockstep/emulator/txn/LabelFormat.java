package io.lockstep.emulator.txn;

import java.util.regex.Pattern;

/** The FE's label syntax check (reference §4.3, StarRocks {@code FeNameFormat.checkLabel}). */
public final class LabelFormat {
    /** Letters, digits, {@code _} and {@code -}, 1 to 128 characters. */
    public static final String LABEL_REGEX = "^[-\\w]{1,128}$";
    private static final Pattern LABEL = Pattern.compile(LABEL_REGEX);

    private LabelFormat() {
    }

    /**
     * @throws TransactionException {@link TransactionException.Reason#LABEL_FORMAT} when the label is invalid
     */
    public static void check(String label) throws TransactionException {
        if (label == null || !LABEL.matcher(label).matches()) {
            // "Label format error. regex: ..." is from FeNameFormat; the ", label: L" suffix is ours.
            throw new TransactionException(TransactionException.Reason.LABEL_FORMAT,
                    "Label format error. regex: " + LABEL_REGEX + ", label: " + label);
        }
    }
}
