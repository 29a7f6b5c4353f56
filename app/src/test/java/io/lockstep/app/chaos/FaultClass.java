package io.lockstep.app.chaos;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The fault classes of the chaos suite (docs/reliability.md), in the order of the summary table. */
enum FaultClass {
    TASK_FAILURE_AT_RECORD("task failure at a random record"),
    TASK_FAILURE_IN_SNAPSHOT("task failure in snapshotState"),
    TASK_FAILURE_AFTER_CHECKPOINT("task failure after checkpoint, before commit"),
    SERVER_5XX("server 5xx"),
    CONNECTION_DROPPED_MID_BODY("connection dropped mid-body"),
    TXN_IN_PROCESSING_STORM("TXN_IN_PROCESSING storm"),
    RUNNING_TXN_LIMIT("running-txn limit reached"),
    SHARED_TXN_EXPIRED("shared transaction expired by the server"),
    COMMIT_REPLY_LOST("commit reply lost"),
    PUBLISH_TIMEOUT("publish timeout"),
    COMMIT_REPLY_LOST_AT_KILL("commit reply lost as the task is killed"),
    PUBLISH_TIMEOUT_AT_KILL("publish timeout as the task is killed"),
    SERVER_RESTART("server restart"),
    SLOW_LOAD("slow load above the socket timeout"),
    RUNNING_TXN_LIMIT_HELD("running-txn limit held for 2 s"),
    SILENT_NODE("silent node on begin or commit"),
    /** In the topic of {@link ProcessKillChaosTest}, by {@link UpstreamResendInjector}. */
    UPSTREAM_RESEND("upstream re-send (Debezium restart)");

    /** The classes only the multi-table scenario injects. */
    static final Set<FaultClass> MULTI_TABLE_ONLY = EnumSet.of(RUNNING_TXN_LIMIT_HELD, SILENT_NODE,
            COMMIT_REPLY_LOST_AT_KILL, PUBLISH_TIMEOUT_AT_KILL);

    /** The classes of the topic, not of the server or the task: {@link ChaosInjector} does not inject them. */
    static final Set<FaultClass> IN_THE_TOPIC = EnumSet.of(UPSTREAM_RESEND);

    private final String title;

    FaultClass(String title) {
        this.title = title;
    }

    /** @return the classes {@link ChaosInjector} injects (server and task faults), in declaration order */
    static List<FaultClass> serverAndTask() {
        EnumSet<FaultClass> classes = EnumSet.allOf(FaultClass.class);
        classes.removeAll(IN_THE_TOPIC);
        return List.copyOf(classes);
    }

    /** @return the name printed in the summary */
    String title() {
        return title;
    }
}
