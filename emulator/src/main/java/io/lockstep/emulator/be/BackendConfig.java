package io.lockstep.emulator.be;

/**
 * BE limits and reply style (docs/protocol.md#load-headers, #labels-and-label-state; StarRocks BE {@code config.h}).
 *
 * @param maxBodyBytes                  {@code streaming_load_max_mb} (102 400 MB): cumulative body bytes per
 *                                      transaction
 * @param maxJsonBatchBytes             {@code streaming_load_max_batch_size_mb} (100 MB): cumulative JSON body
 *                                      bytes per transaction unless {@code ignore_json_size: true}
 * @param labelCollisionAsAnalysisError false (default): a single-table begin on a used label answers
 *                                      LABEL_ALREADY_EXISTS with ExistingJobStatus (older FE, docs); true: the
 * newer FE's ANALYSIS_ERROR with the label text in Message (docs/protocol.md#labels-and-label-state),
 *                                      for testing clients against both
 */
public record BackendConfig(long maxBodyBytes, long maxJsonBatchBytes, boolean labelCollisionAsAnalysisError) {

    /** Limits with the default (LABEL_ALREADY_EXISTS) collision reply. */
    public BackendConfig(long maxBodyBytes, long maxJsonBatchBytes) {
        this(maxBodyBytes, maxJsonBatchBytes, false);
    }

    /** StarRocks' defaults. */
    public static BackendConfig defaults() {
        return new BackendConfig(102_400L * 1024 * 1024, 100L * 1024 * 1024, false);
    }
}
