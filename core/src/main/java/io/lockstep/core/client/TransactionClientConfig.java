package io.lockstep.core.client;

import java.util.Objects;

/**
 * Settings of a {@link TransactionClient}. Immutable; build with {@link #builder()}.
 *
 * <p>Defaults (chosen to match the official connector where it has an equivalent,
 * docs/protocol.md#what-the-official-starrocks-connector-does):
 * <ul>
 *   <li>{@code connectTimeoutMs} = 30 000 ms: TCP connect per address; a refused or timed-out connect fails over
 *       to the next load URL.</li>
 *   <li>{@code socketTimeoutMs} = 60 000 ms: the longest wait for reply bytes; a node silent for longer is left for
 *       the next load URL. A commit that waits longer for publish is settled by a label-state query, so a lost
 *       reply never loses the commit.</li>
 *   <li>{@code waitForContinueTimeoutMs} = 30 000 ms (the StarRocks connector's default for
 *       {@code sink.wait-for-continue.timeout-ms}): how long a load waits for {@code 100 Continue} or a redirect;
 *       a node silent for longer gets no body and the next load URL is tried.</li>
 *   <li>{@code maxRetries} = 3: retries after the first attempt, per operation, for retriable failures only.</li>
 *   <li>{@code retryBackoffInitialMs} = 500 ms, doubling per retry up to {@code retryBackoffMaxMs} = 10 000 ms.</li>
 *   <li>{@code labelStateTimeoutMs} = 60 000 ms: how long a label-state poll keeps waiting while a prepare is
 *       still running (state {@code PREPARE}).</li>
 *   <li>{@code runningTxnLimitWaitMs} = 120 000 ms: how long a begin refused by the server's running-transaction
 *       limit keeps retrying (backpressure, apart from {@code maxRetries}), see {@link RunningTransactionSlotWait}.</li>
 *   <li>{@code redirectAddressMap} = none: redirect targets (BE addresses the FE advertises) replaced by reachable
 *       addresses, see {@link AddressMap}.</li>
 *   <li>{@code sanitizeErrorLog} = false: when true, row values are cut out of server error-log excerpts.</li>
 * </ul>
 * The password is never logged: {@link #toString()} masks it.
 */
public final class TransactionClientConfig {
    private final LoadUrls loadUrls;
    private final String username;
    private final String password;
    private final int connectTimeoutMs;
    private final int socketTimeoutMs;
    private final int waitForContinueTimeoutMs;
    private final int maxRetries;
    private final long retryBackoffInitialMs;
    private final long retryBackoffMaxMs;
    private final long labelStateTimeoutMs;
    private final long runningTxnLimitWaitMs;
    private final AddressMap redirectAddressMap;
    private final boolean sanitizeErrorLog;

    private TransactionClientConfig(Builder b) {
        this.loadUrls = b.loadUrls;
        this.username = b.username;
        this.password = b.password;
        this.connectTimeoutMs = b.connectTimeoutMs;
        this.socketTimeoutMs = b.socketTimeoutMs;
        this.waitForContinueTimeoutMs = b.waitForContinueTimeoutMs;
        this.maxRetries = b.maxRetries;
        this.retryBackoffInitialMs = b.retryBackoffInitialMs;
        this.retryBackoffMaxMs = b.retryBackoffMaxMs;
        this.labelStateTimeoutMs = b.labelStateTimeoutMs;
        this.runningTxnLimitWaitMs = b.runningTxnLimitWaitMs;
        this.redirectAddressMap = b.redirectAddressMap;
        this.sanitizeErrorLog = b.sanitizeErrorLog;
    }

    /** A builder with the documented defaults; {@code loadUrls} and {@code username} must be set. */
    public static Builder builder() {
        return new Builder();
    }

    /** The FE addresses, in failover order. */
    public LoadUrls loadUrls() {
        return loadUrls;
    }

    public String username() {
        return username;
    }

    /** The password; never log it. */
    public String password() {
        return password;
    }

    public int connectTimeoutMs() {
        return connectTimeoutMs;
    }

    public int socketTimeoutMs() {
        return socketTimeoutMs;
    }

    public int waitForContinueTimeoutMs() {
        return waitForContinueTimeoutMs;
    }

    public int maxRetries() {
        return maxRetries;
    }

    public long retryBackoffInitialMs() {
        return retryBackoffInitialMs;
    }

    public long retryBackoffMaxMs() {
        return retryBackoffMaxMs;
    }

    public long labelStateTimeoutMs() {
        return labelStateTimeoutMs;
    }

    /** How long a begin refused by the server's running-transaction limit keeps waiting for a slot, ms. */
    public long runningTxnLimitWaitMs() {
        return runningTxnLimitWaitMs;
    }

    /** Redirect targets mapped to reachable addresses; empty by default. */
    public AddressMap redirectAddressMap() {
        return redirectAddressMap;
    }

    public boolean sanitizeErrorLog() {
        return sanitizeErrorLog;
    }

    @Override
    public String toString() {
        return "TransactionClientConfig{loadUrls=" + loadUrls + ", username=" + username
                + ", password=" + (password.isEmpty() ? "<empty>" : "******")
                + ", connectTimeoutMs=" + connectTimeoutMs + ", socketTimeoutMs=" + socketTimeoutMs
                + ", waitForContinueTimeoutMs=" + waitForContinueTimeoutMs + ", maxRetries=" + maxRetries
                + ", retryBackoffInitialMs=" + retryBackoffInitialMs + ", retryBackoffMaxMs=" + retryBackoffMaxMs
                + ", labelStateTimeoutMs=" + labelStateTimeoutMs + ", runningTxnLimitWaitMs=" + runningTxnLimitWaitMs
                + ", redirectAddressMap=" + redirectAddressMap + ", sanitizeErrorLog=" + sanitizeErrorLog + '}';
    }

    /** Builds a {@link TransactionClientConfig}; {@link #build()} validates every value. */
    public static final class Builder {
        private LoadUrls loadUrls;
        private String username;
        private String password = "";
        private int connectTimeoutMs = 30_000;
        private int socketTimeoutMs = 60_000;
        private int waitForContinueTimeoutMs = 30_000;
        private int maxRetries = 3;
        private long retryBackoffInitialMs = 500;
        private long retryBackoffMaxMs = 10_000;
        private long labelStateTimeoutMs = 60_000;
        private long runningTxnLimitWaitMs = 120_000;
        private AddressMap redirectAddressMap = AddressMap.empty();
        private boolean sanitizeErrorLog;

        private Builder() {
        }

        /** Parses the {@code load-url} option, see {@link LoadUrls#parse(String)}. */
        public Builder loadUrls(String loadUrl) {
            this.loadUrls = LoadUrls.parse(loadUrl);
            return this;
        }

        public Builder loadUrls(LoadUrls loadUrls) {
            this.loadUrls = Objects.requireNonNull(loadUrls, "loadUrls");
            return this;
        }

        public Builder username(String username) {
            this.username = username;
            return this;
        }

        /** The password; null means empty. */
        public Builder password(String password) {
            this.password = password == null ? "" : password;
            return this;
        }

        public Builder connectTimeoutMs(int connectTimeoutMs) {
            this.connectTimeoutMs = connectTimeoutMs;
            return this;
        }

        public Builder socketTimeoutMs(int socketTimeoutMs) {
            this.socketTimeoutMs = socketTimeoutMs;
            return this;
        }

        public Builder waitForContinueTimeoutMs(int waitForContinueTimeoutMs) {
            this.waitForContinueTimeoutMs = waitForContinueTimeoutMs;
            return this;
        }

        public Builder maxRetries(int maxRetries) {
            this.maxRetries = maxRetries;
            return this;
        }

        /** Backoff before the first retry and its cap, ms; each retry doubles the previous wait. */
        public Builder retryBackoff(long initialMs, long maxMs) {
            this.retryBackoffInitialMs = initialMs;
            this.retryBackoffMaxMs = maxMs;
            return this;
        }

        public Builder labelStateTimeoutMs(long labelStateTimeoutMs) {
            this.labelStateTimeoutMs = labelStateTimeoutMs;
            return this;
        }

        /** How long a begin refused by the running-transaction limit keeps waiting for a slot, ms; 0 = no wait. */
        public Builder runningTxnLimitWaitMs(long runningTxnLimitWaitMs) {
            this.runningTxnLimitWaitMs = runningTxnLimitWaitMs;
            return this;
        }

        /** Redirect targets to replace by reachable addresses (e.g. BE addresses advertised inside Docker). */
        public Builder redirectAddressMap(AddressMap redirectAddressMap) {
            this.redirectAddressMap = Objects.requireNonNull(redirectAddressMap, "redirectAddressMap");
            return this;
        }

        public Builder sanitizeErrorLog(boolean sanitizeErrorLog) {
            this.sanitizeErrorLog = sanitizeErrorLog;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @throws IllegalArgumentException naming the first invalid setting
         */
        public TransactionClientConfig build() {
            if (loadUrls == null) {
                throw new IllegalArgumentException("load-url is not set: expected host:port[;host:port...]");
            }
            if (username == null || username.isEmpty()) {
                throw new IllegalArgumentException("username is not set");
            }
            positive("connectTimeoutMs", connectTimeoutMs);
            positive("socketTimeoutMs", socketTimeoutMs);
            positive("waitForContinueTimeoutMs", waitForContinueTimeoutMs);
            if (maxRetries < 0) {
                throw new IllegalArgumentException("maxRetries must be >= 0, got " + maxRetries);
            }
            positive("retryBackoffInitialMs", retryBackoffInitialMs);
            if (retryBackoffMaxMs < retryBackoffInitialMs) {
                throw new IllegalArgumentException("retryBackoffMaxMs (" + retryBackoffMaxMs
                        + ") must be >= retryBackoffInitialMs (" + retryBackoffInitialMs + ")");
            }
            if (runningTxnLimitWaitMs < 0) {
                throw new IllegalArgumentException("runningTxnLimitWaitMs must be >= 0, got " + runningTxnLimitWaitMs);
            }
            if (labelStateTimeoutMs < 0) {
                throw new IllegalArgumentException("labelStateTimeoutMs must be >= 0, got " + labelStateTimeoutMs);
            }
            return new TransactionClientConfig(this);
        }

        private static void positive(String name, long value) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be > 0, got " + value);
            }
        }
    }
}
