package io.lockstep.flink.sink.v2;

import org.apache.flink.api.connector.sink2.InitContext;

/** What Lockstep's Sink V2 writers read from Flink's init contexts (the same calls on Flink 1.20 and 2.x). */
final class WriterContexts {
    private WriterContexts() {
    }

    /** This subtask's index, 0-based. */
    static int subtaskIndex(InitContext context) {
        return context.getTaskInfo().getIndexOfThisSubtask();
    }

    /** The job id as 32 hex characters. */
    static String jobId(InitContext context) {
        return context.getJobInfo().getJobId().toHexString();
    }
}
