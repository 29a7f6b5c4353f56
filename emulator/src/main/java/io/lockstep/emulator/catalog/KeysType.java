package io.lockstep.emulator.catalog;

/**
 * The data model of a table, as named in a StarRocks {@code CREATE TABLE} statement.
 *
 * <p>Source: StarRocks docs "Table types" ({@code PRIMARY KEY}, {@code DUPLICATE KEY}). Only PRIMARY KEY
 * tables accept the {@code __op} delete flag (docs "Load to Primary Key tables").
 */
public enum KeysType {
    /** Upsert/delete by key; the latest write of a key wins. */
    PRIMARY_KEYS,
    /** Append-only; every loaded row is kept, duplicates included. */
    DUPLICATE_KEYS
}
