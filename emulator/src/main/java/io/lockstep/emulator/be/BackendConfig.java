package io.lockstep.emulator.be;

/**
 * BE limits (reference §2.3; StarRocks BE {@code config.h}).
 *
 * @param maxBodyBytes      {@code streaming_load_max_mb} (102 400 MB): cumulative body bytes per transaction
 * @param maxJsonBatchBytes {@code streaming_load_max_batch_size_mb} (100 MB): cumulative JSON body bytes per
 *                          transaction unless {@code ignore_json_size: true}
 */
public record BackendConfig(long maxBodyBytes, long maxJsonBatchBytes) {
    public static BackendConfig defaults() {
        return new BackendConfig(102_400L * 1024 * 1024, 100L * 1024 * 1024);
    }
}
