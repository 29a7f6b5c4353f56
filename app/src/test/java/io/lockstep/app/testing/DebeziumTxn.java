package io.lockstep.app.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One Debezium transaction (MySQL connector, database {@code src}): BEGIN, data events, END with counts. */
public final class DebeziumTxn {
    private final String id;
    private final List<String> data = new ArrayList<>();
    private final Map<String, Long> perTable = new LinkedHashMap<>();

    /** @param id the Debezium transaction id */
    public DebeziumTxn(String id) {
        this.id = id;
    }

    /** Adds an insert ({@code op c}) of {@code after} (a JSON object) into {@code table}. */
    public DebeziumTxn insert(String table, String after) {
        return event(table, "c", "null", after);
    }

    /** Adds an update ({@code op u}). */
    public DebeziumTxn update(String table, String before, String after) {
        return event(table, "u", before, after);
    }

    /** Adds a delete ({@code op d}) of {@code before}. */
    public DebeziumTxn delete(String table, String before) {
        return event(table, "d", before, "null");
    }

    private DebeziumTxn event(String table, String op, String before, String after) {
        data.add(DebeziumMessages.dataJson("src", table, op, before, after, id, data.size() + 1));
        perTable.merge("src." + table, 1L, Long::sum);
        return this;
    }

    /** @return BEGIN, the data events, END with the event counts */
    public List<String> messages() {
        List<String> messages = new ArrayList<>();
        messages.add(DebeziumMessages.beginJson(id));
        messages.addAll(data);
        messages.add(DebeziumMessages.endJson(id, data.size(), perTable));
        return messages;
    }
}
