package io.lockstep.app.file;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * What an {@code --input} file held when a job with a state directory last started from it: its number of lines and
 * the SHA-256 of its bytes, kept in {@value #FILE_NAME} at the state directory's root. A job restored from a
 * checkpoint reads only the lines that file had then ({@link JsonLinesInput}: the records travel inside the job and
 * the checkpoint says how many were read), so lines appended since would never be read and edited lines would be read
 * by their old numbers: {@link #changeSince} tells, and {@code lockstep run} refuses such a restore in one line.
 * Stateless; the stamp file is written by the one process that owns the state directory.
 *
 * @param lines the number of lines
 * @param sha256 the SHA-256 of the file's bytes, lower-case hex
 */
public record InputFileStamp(long lines, String sha256) {

    /** Name of the stamp file at the state directory's root. */
    public static final String FILE_NAME = "input-file.stamp";

    /**
     * @param file the input file
     * @return its stamp
     * @throws UncheckedIOException naming the file when it cannot be read
     */
    public static InputFileStamp of(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[64 * 1024];
            long lines = 0;
            boolean open = false; // bytes after the last line break: one more line
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                        open = false;
                    } else {
                        open = true;
                    }
                }
            }
            return new InputFileStamp(open ? lines + 1 : lines, HexFormat.of().formatHex(digest.digest()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --input " + file + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available in this JVM", e);
        }
    }

    /**
     * Records {@code file}'s stamp in {@code stateRoot} (replacing an earlier one).
     *
     * @throws UncheckedIOException naming the stamp file when it cannot be written
     */
    public static void write(Path stateRoot, Path file) {
        InputFileStamp stamp = of(file);
        Path target = stateRoot.resolve(FILE_NAME);
        try {
            Files.createDirectories(stateRoot);
            Files.writeString(target, stamp.lines() + " " + stamp.sha256() + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param stateRoot the state directory whose checkpoint is about to be restored
     * @param file the input file of this start
     * @return one line saying how the file changed since the stamp in {@code stateRoot} was written, or empty when it
     *     did not or when there is no stamp (state written by an earlier version)
     */
    public static Optional<String> changeSince(Path stateRoot, Path file) {
        Path stored = stateRoot.resolve(FILE_NAME);
        if (!Files.isRegularFile(stored)) {
            return Optional.empty();
        }
        String[] parts;
        try {
            parts = Files.readString(stored, StandardCharsets.UTF_8).strip().split(" ");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + stored + ": " + e.getMessage(), e);
        }
        InputFileStamp now = of(file);
        if (parts.length == 2 && parts[0].equals(Long.toString(now.lines())) && parts[1].equals(now.sha256())) {
            return Optional.empty();
        }
        String then = parts.length == 2 ? parts[0] + " lines" : "other content";
        return Optional.of("--input " + file + " changed since the state in " + stateRoot + " was written (" + then
                + " then, " + now.lines() + " lines now): a restored file job reads only the lines the file had, so "
                + "appended or edited lines would never load; start with a fresh --state-dir (in the exactly-once mode "
                + "the transactions committed before are skipped by the progress table) or load the new lines from a "
                + "file of their own");
    }
}
