package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.job.JobIdentityCheck;
import io.lockstep.app.job.LockstepPipeline;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The operator uids of the {@code lockstep run} job, in pipeline order, as written into its checkpoints and
 * savepoints: Flink restores each operator's state by its uid, so a renamed uid (or one left out) would start that
 * operator empty after an upgrade. The job is only defined here, never run.
 */
class RunPipelineUidsTest {

    private static final String[] STARROCKS = {"run", "--kafka-bootstrap", "kafka:9092", "--topic", "oltp.all",
        "--format", "debezium", "--load-url", "fe:8030", "--database", "dw"};

    @Test
    void theStarRocksJobKeepsItsOperatorUids() {
        assertThat(uids(STARROCKS)).containsExactly("lockstep-kafka-source", "lockstep-job-identity",
                "lockstep-decode", "lockstep-assemble", "lockstep-sink");
    }

    @Test
    void theDorisJobKeepsItsOperatorUids() {
        String[] doris = {"run", "--kafka-bootstrap", "kafka:9092", "--topic", "oltp.all", "--format", "maxwell",
            "--target", "doris", "--load-url", "fe:8030", "--database", "dw"};
        assertThat(uids(doris)).containsExactly("lockstep-kafka-source", "lockstep-job-identity", "lockstep-decode",
                "lockstep-assemble", "lockstep-doris-delete-sign", "lockstep-sink");
    }

    @Test
    void theJobIdentityKeepsItsStateName() {
        assertThat(JobIdentityCheck.STATE_NAME).isEqualTo("lockstep-job-identity");
    }

    /** @return the uid of every operator of the job {@code args} define, by operator id (source first) */
    private static List<String> uids(String[] args) {
        CommandLine.ParseResult parsed = LockstepMain.commandLine().parseArgs(args);
        RunCommand command = (RunCommand) parsed.subcommand().commandSpec().userObject();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        LockstepPipeline.define(env, command.config(), UnaryOperator.identity());
        return env.getStreamGraph().getStreamNodes().stream().sorted(Comparator.comparingInt(StreamNode::getId))
                .map(StreamNode::getTransformationUID).toList();
    }
}
