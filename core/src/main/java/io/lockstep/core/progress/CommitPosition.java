package io.lockstep.core.progress;

import java.nio.charset.StandardCharsets;

/**
 * The commit position a source transaction's end carries (multi-table exactly-once mode): the source database it
 * comes from and an opaque text the transaction assembler wrote and parses back (docs/exactly-once.md). The sink
 * commits it with the data as the progress row {@code #commit:<commitSource>} of the transaction's source partition
 * and never parses the text. Immutable.
 *
 * @param commitSource the source database, e.g. {@code postgresql:pg1}: not blank, not starting with {@code #}, at most
 *                     {@value #MAX_COMMIT_SOURCE_CHARS} characters whose {@code #commit:} source name fits the
 *                     {@code source} column ({@value #MAX_SOURCE_BYTES} UTF-8 bytes)
 * @param text         the position text: not null, at most {@value #MAX_TEXT_BYTES} UTF-8 bytes (the
 *                     {@code commit_position VARCHAR(65533)} column)
 */
public record CommitPosition(String commitSource, String text) {
    /** Longest commit source, characters. */
    public static final int MAX_COMMIT_SOURCE_CHARS = 200;
    /** Longest commit position text, UTF-8 bytes: StarRocks' VARCHAR limit (StarRocks docs, "VARCHAR"). */
    public static final int MAX_TEXT_BYTES = 65_533;
    /** Longest {@code source} of a progress row, UTF-8 bytes: the column is {@code VARCHAR(255)}. */
    static final int MAX_SOURCE_BYTES = 255;

    /**
     * @throws IllegalArgumentException naming what is wrong; the message shows neither the text nor an overlong
     *                                  commit source (they come from the source's rows)
     */
    public CommitPosition {
        if (commitSource == null || commitSource.isBlank()) {
            throw new IllegalArgumentException("commit source is " + (commitSource == null ? "null" : "blank")
                    + (text == null ? " (and so is the commit position)" : " but a commit position is set"));
        }
        if (commitSource.length() > MAX_COMMIT_SOURCE_CHARS || ProgressTable.commitSource(commitSource)
                .getBytes(StandardCharsets.UTF_8).length > MAX_SOURCE_BYTES) {
            throw new IllegalArgumentException("commit source of " + commitSource.length() + " characters is too "
                    + "long: at most " + MAX_COMMIT_SOURCE_CHARS + " characters, and " + (MAX_SOURCE_BYTES
                    - ProgressTable.COMMIT_SOURCE_PREFIX.length()) + " UTF-8 bytes");
        }
        if (commitSource.startsWith(ProgressTable.RESERVED_SOURCE_PREFIX)) {
            throw new IllegalArgumentException("commit source '" + commitSource + "' starts with '#', which is "
                    + "reserved for the progress table's own rows");
        }
        if (text == null) {
            throw new IllegalArgumentException("commit source '" + commitSource + "' has no commit position");
        }
        // a UTF-8 byte is at least a third of a char's encoding: the exact count only for long texts
        if (text.length() * 3L > MAX_TEXT_BYTES && text.getBytes(StandardCharsets.UTF_8).length > MAX_TEXT_BYTES) {
            throw new IllegalArgumentException("commit position of commit source '" + commitSource + "' has "
                    + text.getBytes(StandardCharsets.UTF_8).length + " UTF-8 bytes: at most " + MAX_TEXT_BYTES
                    + " fit the progress table's commit_position column");
        }
    }
}
