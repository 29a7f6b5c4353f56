package io.lockstep.core.label;

import io.lockstep.core.time.Ticker;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The run identity written into every label ({@link LabelGenerator}): 1 to 24 characters of {@code [0-9a-z]}. Every
 * start of a sink subtask, fresh or restored, takes a new one, so its labels never collide with labels an earlier run
 * committed (a restore from an older checkpoint reuses checkpoint ids). Three ways to make one, one per mode:
 * <ul>
 *   <li>{@link #random(Ticker)} (single-table at-least-once, and the fallback of the others): the current time of
 *       the given clock in base 36 followed by 6 random base-36 characters;</li>
 *   <li>{@link #derived} (single-table exactly-once with a fixed table): 16 characters of a SHA-256 over the Flink
 *       job id, the restored run ids, the restored checkpoint id, the subtask index and a candidate number, so every
 *       attempt that restores the same checkpoint walks the same candidates
 *       ({@code io.lockstep.core.restart.RunIdClaim});</li>
 *   <li>{@link #ofAttempt} (multi-table exactly-once): an attempt key of {@value #ATTEMPT_KEY_CHARS} characters
 *       ({@link #attemptKey}: shared by the subtasks of one attempt) followed by 8 random characters, so a subtask can
 *       tell its live siblings' runs ({@link #sameAttempt}) from earlier attempts' runs.</li>
 * </ul>
 * The shapes are part of the labels on the wire and of the checkpoint state: they never change. Stateless and
 * thread-safe.
 */
public final class RunId {
    /** Characters of the attempt key at the start of an {@link #ofAttempt} run id. */
    public static final int ATTEMPT_KEY_CHARS = 10;
    /** Characters of a {@link #derived} run id. */
    public static final int DERIVED_CHARS = 16;
    private static final Pattern VALID = Pattern.compile("^[0-9a-z]{1,24}$");
    private static final Pattern ATTEMPT_KEY = Pattern.compile("^[0-9a-z]{" + ATTEMPT_KEY_CHARS + "}$");
    private static final int RANDOM_CHARS_AFTER_TIME = 6;
    private static final int RANDOM_CHARS_AFTER_ATTEMPT_KEY = 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    private RunId() {
    }

    /**
     * Checks a run id read from state or given by a caller.
     *
     * @return the run id
     * @throws IllegalArgumentException quoting it when it is not 1 to 24 characters of {@code [0-9a-z]}
     */
    public static String checked(String runId) {
        if (runId == null || !VALID.matcher(runId).matches()) {
            throw new IllegalArgumentException("run id '" + runId + "' is invalid: it must be 1 to 24 characters of "
                    + "[0-9a-z] (see RunId)");
        }
        return runId;
    }

    /** Whether {@code runId} has the run-id shape (1 to 24 characters of {@code [0-9a-z]}). */
    public static boolean isValid(String runId) {
        return runId != null && VALID.matcher(runId).matches();
    }

    /**
     * A fresh run id: {@code clock}'s now ({@link Ticker#nowMs()}, epoch-like on {@link Ticker#system()}) in base 36
     * followed by 6 random base-36 characters. The time part separates runs started at different times, the random
     * part runs started in the same millisecond (or on a manual clock in tests).
     */
    public static String random(Ticker clock) {
        StringBuilder id = new StringBuilder(Long.toString(clock.nowMs(), 36));
        appendRandom(id, RANDOM_CHARS_AFTER_TIME);
        return id.toString().toLowerCase(Locale.ROOT);
    }

    /**
     * Derived candidate {@code k}: {@value #DERIVED_CHARS} characters of {@code [0-9a-z]}, a pure function of its
     * inputs.
     *
     * @param jobId                the Flink job id
     * @param restoredRunIds       run ids held in the restored state, in any order (empty without state)
     * @param restoredCheckpointId the restored checkpoint id, 0 without state
     * @param subtaskIndex         the sink subtask
     * @param k                    the candidate number, from 0
     */
    public static String derived(String jobId, List<String> restoredRunIds, long restoredCheckpointId,
                                 int subtaskIndex, int k) {
        StringBuilder key = new StringBuilder("lockstep-run|").append(jobId);
        restoredRunIds.stream().sorted().distinct().forEach(id -> key.append('|').append(id));
        key.append('|').append(restoredCheckpointId).append('|').append(subtaskIndex).append('|').append(k);
        return sha256Base36(key.toString(), DERIVED_CHARS);
    }

    /**
     * The attempt key shared by the subtasks of one attempt.
     *
     * @param flinkJobId           the Flink job id (a new one per submission)
     * @param restoredCheckpointId the checkpoint the attempt restored, or -1 without state
     * @param attemptNumber        the task's attempt number (grows with every restart of the job's region)
     */
    public static String attemptKey(String flinkJobId, long restoredCheckpointId, int attemptNumber) {
        return sha256Base36("lockstep-attempt|" + flinkJobId + "|" + restoredCheckpointId + "|" + attemptNumber,
                ATTEMPT_KEY_CHARS);
    }

    /**
     * A new run id of the attempt {@code attemptKey}: the key followed by 8 random characters of {@code [0-9a-z]}.
     *
     * @throws IllegalArgumentException quoting the key when it is not {@value #ATTEMPT_KEY_CHARS} characters of
     *                                  {@code [0-9a-z]}
     */
    public static String ofAttempt(String attemptKey) {
        if (attemptKey == null || !ATTEMPT_KEY.matcher(attemptKey).matches()) {
            throw new IllegalArgumentException("attempt key '" + attemptKey + "' is invalid: expected "
                    + ATTEMPT_KEY_CHARS + " characters of [0-9a-z]");
        }
        StringBuilder id = new StringBuilder(attemptKey);
        appendRandom(id, RANDOM_CHARS_AFTER_ATTEMPT_KEY);
        return id.toString();
    }

    /** True when both run ids belong to the same attempt (same attempt key, {@link #ofAttempt}). */
    public static boolean sameAttempt(String a, String b) {
        return a != null && b != null && a.length() > ATTEMPT_KEY_CHARS && b.length() > ATTEMPT_KEY_CHARS
                && a.regionMatches(0, b, 0, ATTEMPT_KEY_CHARS);
    }

    private static void appendRandom(StringBuilder id, int chars) {
        for (int i = 0; i < chars; i++) {
            id.append(Character.forDigit(RANDOM.nextInt(36), 36));
        }
    }

    private static String sha256Base36(String key, int chars) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return new BigInteger(1, digest).toString(36).substring(0, chars);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
