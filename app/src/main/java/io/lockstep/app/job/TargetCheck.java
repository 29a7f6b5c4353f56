package io.lockstep.app.job;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.flink.sink.SinkSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * Pre-flight check of {@code lockstep run} against the target, before a Flink job is started (as
 * {@code io.lockstep.app.kafka.TopicCheck} checks Kafka): the credentials are accepted and every target database
 * exists. It asks the FE for the state of a label no one uses ({@code GET /api/{db}/get_load_state}, StarRocks
 * {@code GetStreamLoadState}; Doris the same path) in each database, with the sink's own client, user and
 * password: HTTP 401/403 means the credentials are refused, an {@code unknown database} reply that the database
 * does not exist, an unreachable address that the retries of {@code sink.max-retries} ran out. Tables are
 * checked by the first load into each (a missing table then fails the job at once, in one line).
 *
 * <p>Stateless; the client is closed before returning. Never logs the password.
 */
public final class TargetCheck {

    private TargetCheck() {
    }

    /**
     * @param options the sink's options (load-url, user, password, target, retries)
     * @param databases the target databases rows may be routed to
     * @return one line per problem, empty when the target is ready
     */
    public static List<String> problems(StarRocksSinkOptions options, Collection<String> databases) {
        List<String> problems = new ArrayList<>();
        String probe = "lockstep-preflight-" + UUID.randomUUID();
        try (TransactionClient client = SinkSettings.from(options).newTransactionClient(LoadMetrics.noop())) {
            for (String database : databases) {
                try {
                    client.labelState(database, probe);
                } catch (TransactionException e) {
                    if (e.failureClass() == FailureClass.ACCESS_DENIED) {
                        problems.add("target " + String.join(";", options.getLoadUrls()) + " refuses user '"
                                + options.getUsername() + "' (HTTP 401/403): check --user and --password");
                        return problems; // the same for every database
                    }
                    if (e.failureClass() == FailureClass.DATA_ERROR) {
                        problems.add("target database '" + database + "' does not exist at "
                                + String.join(";", options.getLoadUrls()) + " (check --database or --table-map)");
                    } else {
                        problems.add("target " + String.join(";", options.getLoadUrls()) + " cannot be asked about "
                                + "database '" + database + "': " + e.getMessage());
                        return problems;
                    }
                }
            }
        } catch (Exception e) { // closing the client
            problems.add("target " + String.join(";", options.getLoadUrls()) + " cannot be checked: " + e);
        }
        return problems;
    }
}
