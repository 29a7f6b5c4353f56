package io.lockstep.e2e.resend;

import io.lockstep.e2e.source.PostgresServer;
import io.lockstep.e2e.source.PublisherProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * What the crash tests wait for while a {@link PublisherProcess} runs, failing with the child's log when it died
 * instead of waiting out the timeout, and where they keep its log.
 */
public final class PublisherWaits {

    private static final long TIMEOUT_NANOS = 60_000_000_000L;

    private PublisherWaits() {
    }

    /** A condition polled until it holds. */
    @FunctionalInterface
    public interface Condition {
        /** @return whether it holds now */
        boolean holds() throws Exception;
    }

    /**
     * Polls every 5 ms, up to 60 s.
     *
     * @param condition what to wait for
     * @param publisher the child that must stay alive meanwhile
     * @param what names the condition in the failure
     * @throws AssertionError naming {@code what} and the child's log when the child exits or 60 s pass
     */
    public static void until(Condition condition, PublisherProcess publisher, String what) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (!condition.holds()) {
            if (!publisher.isAlive()) {
                throw new AssertionError("the publisher exited while waiting for " + what + "; its log: "
                        + Files.readString(publisher.log()));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited 60 s for " + what + "; the publisher's log: " + publisher.log());
            }
            Thread.sleep(5);
        }
    }

    /**
     * Waits (up to 60 s) until the publisher streams: replication slot {@code slot} is in use by a WAL sender and has
     * a confirmed flush position.
     */
    public static void streaming(PostgresServer postgres, String slot, PublisherProcess publisher) throws Exception {
        until(() -> {
            try (Connection c = postgres.connect(); PreparedStatement q = c.prepareStatement(
                    "SELECT active AND confirmed_flush_lsn IS NOT NULL FROM pg_replication_slots"
                            + " WHERE slot_name = ?")) {
                q.setString(1, slot);
                try (ResultSet rs = q.executeQuery()) {
                    return rs.next() && rs.getBoolean(1);
                }
            }
        }, publisher, "the replication slot streaming");
    }

    /**
     * Copies the publishers' logs to {@code target/<directory>} (the test's temporary directory is deleted).
     *
     * @param directory the directory under {@code target}
     * @param publishers the children; {@code null} ones (never started) are skipped
     */
    public static void keepLogs(String directory, PublisherProcess... publishers) throws IOException {
        Path logs = Files.createDirectories(Path.of("target", directory));
        for (PublisherProcess publisher : publishers) {
            if (publisher != null && Files.exists(publisher.log())) {
                Files.copy(publisher.log(), logs.resolve(publisher.log().getFileName()),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
