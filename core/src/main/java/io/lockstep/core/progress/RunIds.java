package io.lockstep.core.progress;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * Run ids of the multi-table exactly-once mode: {@code <attempt key, 10 chars><random, 8 chars>}, 18 characters of
 * {@code [0-9a-z]} (a valid {@code io.lockstep.core.label.LabelGenerator} run id).
 *
 * <p>The attempt key is the same for every subtask of one attempt of one Flink job (a hash of the Flink job id, the
 * restored checkpoint id and the task attempt number), so a subtask can tell the runs of its sibling subtasks, which
 * are alive and must not be settled, from the runs of earlier attempts and earlier jobs, which must be. The random
 * part keeps every run's labels apart. Stateless and thread-safe.
 */
public final class RunIds {
    /** Characters of the attempt key at the start of a run id. */
    public static final int ATTEMPT_KEY_CHARS = 10;
    private static final int RANDOM_CHARS = 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    private RunIds() {
    }

    /**
     * The attempt key shared by the subtasks of one attempt.
     *
     * @param flinkJobId           the Flink job id (a new one per submission)
     * @param restoredCheckpointId the checkpoint the attempt restored, or -1 without state
     * @param attemptNumber        the task's attempt number (grows with every restart of the job's region)
     */
    public static String attemptKey(String flinkJobId, long restoredCheckpointId, int attemptNumber) {
        String key = "lockstep-attempt|" + flinkJobId + "|" + restoredCheckpointId + "|" + attemptNumber;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            String base36 = new BigInteger(1, digest).toString(36);
            return base36.substring(0, ATTEMPT_KEY_CHARS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /** A new run id of the attempt {@code attemptKey} ({@link #ATTEMPT_KEY_CHARS} characters of {@code [0-9a-z]}). */
    public static String newRunId(String attemptKey) {
        if (attemptKey == null || !attemptKey.matches("^[0-9a-z]{" + ATTEMPT_KEY_CHARS + "}$")) {
            throw new IllegalArgumentException("attempt key '" + attemptKey + "' is invalid: expected "
                    + ATTEMPT_KEY_CHARS + " characters of [0-9a-z]");
        }
        StringBuilder id = new StringBuilder(attemptKey);
        for (int i = 0; i < RANDOM_CHARS; i++) {
            id.append(Character.forDigit(RANDOM.nextInt(36), 36));
        }
        return id.toString();
    }

    /** True when both run ids belong to the same attempt (same attempt key). */
    public static boolean sameAttempt(String a, String b) {
        return a != null && b != null && a.length() > ATTEMPT_KEY_CHARS && b.length() > ATTEMPT_KEY_CHARS
                && a.regionMatches(0, b, 0, ATTEMPT_KEY_CHARS);
    }
}
