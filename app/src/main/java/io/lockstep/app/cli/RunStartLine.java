package io.lockstep.app.cli;

import io.lockstep.app.assemble.CommittedSourcePositions;
import io.lockstep.app.job.ExactlyOnceAcrossTables;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.job.RestartPolicy;
import io.lockstep.app.job.StartFromCommitted;
import io.lockstep.app.job.StateRestore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The line {@code lockstep run} prints when a local job starts: what it reads, where it writes, how, and from which
 * state it starts.
 */
final class RunStartLine {

    private RunStartLine() {
    }

    /**
     * @param command the parsed options of the run
     * @param restarts the restart policy
     * @param plan the state restored and kept, or empty
     * @return the start line, without the command's prefix
     */
    static String of(RunCommand command, RestartPolicy restarts, Optional<StateRestore.Plan> plan) {
        Optional<Path> restored = plan.flatMap(StateRestore.Plan::checkpoint);
        boolean legacy = plan.map(StateRestore.Plan::legacy).orElse(false);
        boolean layout = command.topicLayout.transactionTopic != null;
        String source = command.input != null ? "file " + command.input
                : (layout ? layoutTopics(command) : "topic '" + command.topic + "'") + " at " + command.kafkaBootstrap
                        + (command.bounded ? " up to " + (layout ? "their" : "its") + " end offsets" : "")
                        + (layout ? ", " + rebuilding(command) : "");
        return "reading " + command.format.optionValue() + " from " + source + ", writing "
                + command.target.optionValue() + " " + command.loadUrl
                + " database '" + command.database + "' as " + command.user
                + (command.deadLetter != null ? ", dead letters to " + command.deadLetter : "")
                + (command.tableCreation.createTables ? ", " + creating(command.tableCreation) : "")
                + ", parallelism " + command.parallelism + ", checkpoint every "
                + command.checkpointIntervalMs + " ms, restarts " + restarts.describe() + ", "
                + restored.map(path -> "restoring " + path + (legacy ? " (this job's, from the state directory of "
                        + "earlier versions; next checkpoints in " + plan.get().directory().root() + ")" : ""))
                .orElse(command.bounded ? "no state kept (--bounded)"
                        : command.input != null && command.stateDir == null ? "no state kept"
                        : "no state to restore (state dir " + plan.map(p -> p.directory().root().toString())
                                .orElse("none") + ")");
    }

    /**
     * @return what {@code --create-tables} creates while the job runs: a missing table at its first row, its types from
     *     the event's schema or the source catalog; without a catalog a table that receives no event is not created
     */
    private static String creating(RunTableCreation creation) {
        return creation.sourceJdbcUrl != null
                ? "creating a missing table at its first row (types from the event's schema, else the source catalog)"
                : "creating a missing table at its first row (types from the event's schema; without "
                        + "--source-jdbc-url a table that receives no event is not created)";
    }

    /** @return {@code topics 'A', 'B' and 'T'} or {@code the topics matching 'REGEX' and 'T'} */
    private static String layoutTopics(RunCommand command) {
        String transactions = command.topicLayout.transactionTopic;
        return command.topicLayout.topicPattern != null
                ? "the topics matching '" + command.topicLayout.topicPattern + "' and '" + transactions + "'"
                : "topics '" + String.join("', '", RunTopicLayout.topics(command.topic)) + "' and '" + transactions
                        + "'";
    }

    /**
     * @return {@code rebuilding transactions from 2 table topics and T} or {@code rebuilding transactions from the
     *     table topics matching 'REGEX' and T}
     */
    static String rebuilding(RunCommand command) {
        String transactions = command.topicLayout.transactionTopic;
        if (command.topicLayout.topicPattern != null) {
            return "rebuilding transactions from the table topics matching '" + command.topicLayout.topicPattern
                    + "' and " + transactions;
        }
        int tables = RunTopicLayout.topics(command.topic).size();
        return "rebuilding transactions from " + tables + " table topic" + (tables == 1 ? "" : "s") + " and "
                + transactions;
    }

    /**
     * The start line's part that says what re-sent source transactions are recognised by.
     *
     * @param config the job's settings (format, semantic)
     * @param start what the job starts from
     * @return e.g. {@code re-sends recognised by source commit position (...), committed with the data}
     */
    static String deduplication(PipelineConfig config, StartFromCommitted.Start start) {
        String by = "re-sends recognised by " + CommittedSourcePositions.deduplicatesBy(config.format());
        if (!ExactlyOnceAcrossTables.enabled(config)) {
            return by + " within this job's state (nothing is committed with the data in this mode)";
        }
        return start.keepsCommitPositions() ? by + ", committed with the data"
                : by + " within this job's state only (legacy progress table without commit_position)";
    }
}
