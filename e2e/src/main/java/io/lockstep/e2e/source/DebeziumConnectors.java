package io.lockstep.e2e.source;

import java.util.Properties;

/**
 * The Debezium connector properties the end-to-end tests and the recipe run with, written as a Kafka Connect user
 * writes them (docs/sources.md lists them): transaction metadata on, the data topics and the transaction topic routed
 * into one topic by the {@code RegexRouter} SMT (or, with {@link #defaultLayout}, Debezium's own topics: one per table
 * and the transaction topic), the JSON converter with or without schemas, and the embedded engine's offset store.
 */
public final class DebeziumConnectors {

    private DebeziumConnectors() {
    }

    /**
     * @param port the PostgreSQL port on localhost
     * @param topicPrefix Debezium's {@code topic.prefix}; the combined topic is {@code <prefix>.all}
     * @param slot the replication slot name (one per connector)
     * @param tables {@code table.include.list}, e.g. {@code public.orders,public.order_items}
     * @param schemas the JSON converter's {@code schemas.enable}
     * @return the PostgreSQL connector's properties ({@code pgoutput}, in-memory offsets)
     */
    public static Properties postgres(int port, String topicPrefix, String slot, String tables, boolean schemas) {
        Properties p = common(topicPrefix, schemas);
        p.setProperty("name", "lockstep-" + slot);
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        p.setProperty("database.hostname", "localhost");
        p.setProperty("database.port", Integer.toString(port));
        p.setProperty("database.user", "postgres");
        p.setProperty("database.password", "postgres");
        p.setProperty("database.dbname", "postgres");
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", slot);
        p.setProperty("publication.name", slot);
        p.setProperty("publication.autocreate.mode", "filtered");
        p.setProperty("table.include.list", tables);
        return p;
    }

    /**
     * @param port the MariaDB port on localhost
     * @param topicPrefix Debezium's {@code topic.prefix}; the combined topic is {@code <prefix>.all}
     * @param serverId the binlog client's {@code database.server.id} (unique among the server's replicas)
     * @param database the captured database
     * @param user a user with REPLICATION SLAVE, REPLICATION CLIENT, SELECT, RELOAD
     * @param password its password
     * @param schemas the JSON converter's {@code schemas.enable}
     * @return the MySQL connector's properties for MariaDB (in-memory offsets and schema history)
     */
    public static Properties mariadb(int port, String topicPrefix, int serverId, String database, String user,
            String password, boolean schemas) {
        Properties p = common(topicPrefix, schemas);
        p.setProperty("name", "lockstep-" + topicPrefix);
        p.setProperty("connector.class", "io.debezium.connector.mysql.MySqlConnector");
        p.setProperty("database.hostname", "127.0.0.1");
        p.setProperty("database.port", Integer.toString(port));
        p.setProperty("database.user", user);
        p.setProperty("database.password", password);
        p.setProperty("database.server.id", Integer.toString(serverId));
        p.setProperty("database.include.list", database);
        p.setProperty("schema.history.internal", "io.debezium.relational.history.MemorySchemaHistory");
        p.setProperty("database.connectionTimeZone", "UTC");
        return p;
    }

    private static Properties common(String topicPrefix, boolean schemas) {
        Properties p = new Properties();
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        p.setProperty("offset.flush.interval.ms", "1000");
        p.setProperty("topic.prefix", topicPrefix);
        p.setProperty("provide.transaction.metadata", "true");
        p.setProperty("snapshot.mode", "initial");
        p.setProperty("transforms", "route");
        p.setProperty("transforms.route.type", "org.apache.kafka.connect.transforms.RegexRouter");
        p.setProperty("transforms.route.regex", java.util.regex.Pattern.quote(topicPrefix) + "\\..*");
        p.setProperty("transforms.route.replacement", combinedTopic(topicPrefix));
        p.setProperty("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        p.setProperty("key.converter.schemas.enable", Boolean.toString(schemas));
        p.setProperty("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        p.setProperty("value.converter.schemas.enable", Boolean.toString(schemas));
        return p;
    }

    /**
     * @param connector connector properties of {@link #postgres} or {@link #mariadb}; not changed
     * @return a copy without the {@code RegexRouter}: Debezium's default topic layout, each table's change events in
     *     topic {@code <prefix>.<schema>.<table>} ({@link #tableTopic}) and the transaction metadata in
     *     {@code <prefix>.transaction} ({@link #transactionTopic}); docs/sources.md,
     *     "Debezium's default layout: one topic per table"
     */
    public static Properties defaultLayout(Properties connector) {
        Properties p = new Properties();
        p.putAll(connector);
        for (String name : connector.stringPropertyNames()) {
            if (name.equals("transforms") || name.startsWith("transforms.route.")) {
                p.remove(name);
            }
        }
        return p;
    }

    /**
     * @param topicPrefix Debezium's {@code topic.prefix}
     * @param table the captured table as {@code table.include.list} names it, e.g. {@code public.orders}
     * @return the table's topic in Debezium's default layout, {@code <prefix>.<schema>.<table>}
     */
    public static String tableTopic(String topicPrefix, String table) {
        return topicPrefix + "." + table;
    }

    /**
     * @param topicPrefix Debezium's {@code topic.prefix}
     * @return the transaction metadata topic in Debezium's default layout, {@code <prefix>.transaction}
     *     ({@code topic.transaction}'s default, Debezium's documentation "Transaction metadata")
     */
    public static String transactionTopic(String topicPrefix) {
        return topicPrefix + ".transaction";
    }

    /** @return the one topic data and transaction events are routed into */
    public static String combinedTopic(String topicPrefix) {
        return topicPrefix + ".all";
    }
}
