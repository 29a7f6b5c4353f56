package io.lockstep.e2e.create;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Captures the first data change event of each captured table as Kafka Connect's {@link JsonConverter} writes it
 * ({@code schemas.enable=true} for key and value), by running the connector in Debezium's embedded engine without
 * Kafka, and writes them as one JSON fixture: {@code {"<schema>.<table>": {"key": <key JSON or null>, "value":
 * <value JSON>}, ...}}. Used only to regenerate fixtures ({@code -Dlockstep.fixtures.regenerate=true}).
 */
final class EventSchemaFixture {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EventSchemaFixture() {
    }

    /**
     * @param connector the connector's properties (as {@code DebeziumConnectors} writes them)
     * @param tables the {@code schema.table} names to wait for
     * @param file where to write the fixture
     * @param timeout how long to wait for one event of each table
     */
    static void capture(Properties connector, List<String> tables, Path file, Duration timeout)
            throws IOException, InterruptedException {
        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "true"), true);
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        Map<String, ObjectNode> events = new LinkedHashMap<>();
        tables.forEach(table -> events.put(table, null));
        DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine = DebeziumEngine.create(Connect.class)
                .using(connector)
                .notifying(record -> {
                    SourceRecord r = record.value();
                    if (r.value() == null || !(r.value() instanceof org.apache.kafka.connect.data.Struct value)
                            || value.schema().field("source") == null) {
                        return;
                    }
                    var source = value.getStruct("source");
                    String table = source.getString("schema") + "." + source.getString("table");
                    synchronized (events) {
                        if (events.containsKey(table) && events.get(table) == null) {
                            ObjectNode event = JSON.createObjectNode();
                            try {
                                event.set("key", r.key() == null ? null
                                        : JSON.readTree(keys.fromConnectData(r.topic(), r.keySchema(), r.key())));
                                event.set("value", JSON.readTree(
                                        values.fromConnectData(r.topic(), r.valueSchema(), r.value())));
                            } catch (IOException e) {
                                throw new IllegalStateException(e);
                            }
                            events.put(table, event);
                            events.notifyAll();
                        }
                    }
                })
                .build();
        ExecutorService runner = Executors.newSingleThreadExecutor();
        runner.execute(engine);
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            synchronized (events) {
                while (events.containsValue(null)) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new IllegalStateException("no event within " + timeout + " for " + events.entrySet()
                                .stream().filter(e -> e.getValue() == null).map(Map.Entry::getKey).toList());
                    }
                    events.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
                }
            }
        } finally {
            engine.close();
            runner.shutdown();
            runner.awaitTermination(30, TimeUnit.SECONDS);
        }
        ObjectNode fixture = JSON.createObjectNode();
        events.forEach(fixture::set);
        Files.createDirectories(file.getParent());
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(fixture) + "\n",
                StandardCharsets.UTF_8);
    }
}
