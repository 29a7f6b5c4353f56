package io.lockstep.app.create;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Finds the shape of a source table whose target table does not exist yet, for the table created mid-stream
 * (docs/table-creation.md#tables-created-mid-stream): first from the Kafka Connect schema of the row's own message
 * ({@code schemas.enable=true}, {@link DebeziumSourceSchema}; the key from the record key's schema;
 * {@code --key-columns} replaces it in the DDL, {@link CreateTableStatement}), else from the source catalog of
 * {@code --source-jdbc-url} ({@link JdbcSourceCatalog}, connected for each table it describes: tables created
 * mid-stream are rare, and no idle connection is kept).
 *
 * <p>Stateless apart from its settings; thread-safe. Never logs the password.
 */
public final class SourceTableLookup {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final TableCreation creation;

    /** @param creation the key columns and the source catalog's URL and user */
    public SourceTableLookup(TableCreation creation) {
        this.creation = Objects.requireNonNull(creation, "creation");
    }

    /**
     * @param database the source database (PostgreSQL: schema) the row names
     * @param table the source table the row names
     * @param rawKey the row's message key as read, or {@code null}
     * @param rawValue the row's message value as read, or {@code null}
     * @return the table's shape, or {@code null} when the message carries no schema and there is no
     *     {@code --source-jdbc-url} (or the catalog does not know the table)
     * @throws IllegalArgumentException when the message's schema is there but describes no row
     * @throws SourceCatalogException when the catalog cannot be read (one line naming the URL without password)
     */
    public SourceTable find(String database, String table, String rawKey, String rawValue) {
        SourceTable fromEvent = fromEvent(database, table, rawKey, rawValue);
        if (fromEvent != null) {
            return fromEvent;
        }
        if (creation.sourceJdbcUrl() == null) {
            return null;
        }
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(creation.sourceJdbcUrl(), creation.sourceUser(),
                creation.sourcePassword())) {
            return catalog.table(database, table);
        }
    }

    /** @return whether a source catalog describes tables whose messages carry no schema */
    public boolean hasCatalog() {
        return creation.sourceJdbcUrl() != null;
    }

    private SourceTable fromEvent(String database, String table, String rawKey, String rawValue) {
        JsonNode value = parse(rawValue);
        if (value == null || !value.has("schema") || !value.has("payload")) {
            return null;
        }
        JsonNode key = parse(rawKey);
        List<String> keyColumns = DebeziumSourceSchema.keyColumns(key == null ? null : key.get("schema"));
        return DebeziumSourceSchema.read(value.get("schema"), database, table, keyColumns);
    }

    /** @return the JSON object of {@code text}, or {@code null} when there is none (no text, not an object) */
    private static JsonNode parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(text);
            return node != null && node.isObject() ? node : null;
        } catch (IOException e) {
            return null; // the decoder read it already: a key that is no JSON object names no key columns
        }
    }
}
