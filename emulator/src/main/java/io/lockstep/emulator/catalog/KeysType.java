package io.lockstep.emulator.catalog;

/**
 * The data model of a table, as named in a {@code CREATE TABLE} statement.
 *
 * <p>Sources: StarRocks docs "Table types" ({@code PRIMARY KEY}, {@code DUPLICATE KEY}); Doris docs "Data Model"
 * ({@code UNIQUE KEY}, {@code DUPLICATE KEY}). PRIMARY KEY tables take the StarRocks {@code __op} delete flag (docs
 * "Load to Primary Key tables"); UNIQUE KEY tables take Doris' {@code __DORIS_DELETE_SIGN__}
 * (docs/protocol.md#doris-endpoints-redirects-and-headers, {@code hidden_columns}). Both keep the latest write of a
 * key.
 */
public enum KeysType {
    /** Upsert/delete by key; the latest write of a key wins (StarRocks). */
    PRIMARY_KEYS,
    /** Append-only; every loaded row is kept, duplicates included. */
    DUPLICATE_KEYS,
    /** Upsert/delete by key; the latest write of a key wins (Doris' merge-on-write Unique Key model). */
    UNIQUE_KEYS;

    /** True when a load upserts by key and may delete by key (PRIMARY KEY and UNIQUE KEY tables). */
    public boolean upsertsByKey() {
        return this == PRIMARY_KEYS || this == UNIQUE_KEYS;
    }
}
