package io.lockstep.app.cli;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.file.JsonLinesInput;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.rebuild.TopicLayout;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.ParameterException;

/**
 * Builds the job's settings ({@link PipelineConfig}) from the options of {@code lockstep run}, once
 * {@link RunOptionCheck} accepted them. With {@code --input} the Kafka settings are unused: the topic is the file's
 * ({@link JsonLinesInput#topicOf}), naming it in positions and the job name, and the run is bounded. With
 * {@code --transaction-topic} the job's topic is the transaction topic and its {@link PipelineConfig#topicLayout()}
 * names the table topics ({@link RunTopicLayout}).
 */
final class RunPipelineConfig {

    private RunPipelineConfig() {
    }

    /**
     * @param options the parsed options of one {@code lockstep run}
     * @return the job's settings
     * @throws ParameterException naming the option whose value is out of range or malformed
     */
    static PipelineConfig of(RunCommand options) {
        RunOptionCheck check = new RunOptionCheck(options);
        check.check();
        Properties kafka = new Properties();
        kafka.putAll(options.kafkaProperties);
        Map<String, List<String>> keys = check.keyColumns();
        AssemblerOptions assembler = new AssemblerOptions(options.maxTransactionRows, options.maxTransactionBytes,
                options.maxTransactionOpenMs, options.onBound, options.badInput, options.schemaChanges)
                .withDeadLetter(check.deadLetterTarget(kafka))
                .withTableCreation(check.tableCreation());
        RunOptionCheck.Semantic semantic = check.semantic();
        boolean file = options.input != null;
        TopicLayout layout = check.topicLayout();
        PipelineConfig config = new PipelineConfig(file ? "none" : options.kafkaBootstrap,
                file ? JsonLinesInput.topicOf(options.input)
                        : layout != null ? layout.transactionTopic() : options.topic, options.groupId, kafka,
                file || options.bounded, options.format, keys, options.loadUrl, options.jdbcUrl,
                options.database, options.tableMap, options.unknownTable, options.user, options.password,
                options.labelPrefix, options.parallelism, options.checkpointIntervalMs, options.commitIntervalMs,
                options.restartAttempts, options.restartDelayMs, assembler, options.sinkOptions,
                options.target);
        config = semantic.applyTo(config);
        if (layout != null) {
            config = config.withTopicLayout(layout, options.topicLayout.maxTopicDriftMs);
        }
        return options.adoptState ? config.withAdoptedState() : config;
    }
}
