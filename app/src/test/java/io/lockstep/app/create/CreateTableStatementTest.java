package io.lockstep.app.create;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.route.TargetTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link CreateTableStatement}: the DDL text, the key rules, the refusals. */
class CreateTableStatementTest {

    private static final TargetTable TARGET = new TargetTable("dw", "orders");

    private static SourceColumn column(String name, String type, Integer length) {
        return new SourceColumn(name, type, length, null, true, null, null, null);
    }

    private static SourceTable orders(List<String> key) {
        return new SourceTable("shop", "orders", List.of(column("note", "text", null), column("line", "int4", null),
                column("order_id", "int8", null), column("total", "numeric", 12)), key);
    }

    @Test
    void keyColumnsComeFirstInKeyOrderAndNotNullTheRestNullableInSourceOrder() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("replication_num", "1");
        properties.put("enable_persistent_index", "true");
        TableCreationOptions options = new TableCreationOptions(4, properties, Map.of(), Map.of(), 128);

        CreateTableStatement create = CreateTableStatement.of(orders(List.of("order_id", "line")), TARGET, options);

        assertThat(create.sql()).isEqualTo("CREATE TABLE IF NOT EXISTS `dw`.`orders` (\n"
                + "  `order_id` BIGINT NOT NULL,\n"
                + "  `line` INT NOT NULL,\n"
                + "  `note` STRING NULL,\n"
                + "  `total` DECIMAL(12,0) NULL\n"
                + ") PRIMARY KEY (`order_id`, `line`)\n"
                + "DISTRIBUTED BY HASH(`order_id`, `line`) BUCKETS 4\n"
                + "PROPERTIES (\"replication_num\" = \"1\", \"enable_persistent_index\" = \"true\")");
        assertThat(create.keyColumns()).containsExactly("order_id", "line");
    }

    @Test
    void withoutBucketsOrPropertiesStarRocksPicks() {
        String sql = CreateTableStatement.of(orders(List.of("order_id")), TARGET, TableCreationOptions.defaults())
                .sql();

        assertThat(sql).endsWith(") PRIMARY KEY (`order_id`)\nDISTRIBUTED BY HASH(`order_id`)");
    }

    @Test
    void overridesReplaceTheMappedTypeAndTheKey() {
        SourceTable keyless = new SourceTable("shop", "events", List.of(column("id", "uuid", null),
                column("payload", "bytea", null), column("amount", "numeric", null)), List.of());
        TableCreationOptions options = new TableCreationOptions(0, Map.of(),
                Map.of("shop.events.payload", "STRING", "shop.events.amount", "DECIMAL(38, 10)"),
                Map.of("shop.events", List.of("id")), 128);

        CreateTableStatement create = CreateTableStatement.of(keyless, new TargetTable("dw", "events"), options);

        assertThat(create.columns()).containsExactly(new CreateTableStatement.Column("id", "VARCHAR(36)", false),
                new CreateTableStatement.Column("payload", "STRING", true),
                new CreateTableStatement.Column("amount", "DECIMAL(38, 10)", true));
    }

    @Test
    void aTableWithoutPrimaryKeyIsRefusedNamingTheOverride() {
        assertThatThrownBy(() -> CreateTableStatement.of(orders(List.of()), TARGET, TableCreationOptions.defaults()))
                .isInstanceOf(TableRefusedException.class)
                .hasMessage("table shop.orders has no primary key, so updates and deletes could not find their rows"
                        + " in StarRocks: give it one in the source, name its key with --key-columns"
                        + " shop.orders=COL[+COL...], or exclude it");
    }

    @Test
    void aKeyTypeAPrimaryKeyTableDoesNotTakeIsRefused() {
        assertThatThrownBy(() -> CreateTableStatement.of(orders(List.of("total")), TARGET,
                TableCreationOptions.defaults())).isInstanceOf(TableRefusedException.class)
                .hasMessageContaining("table shop.orders: primary key column 'total' would be DECIMAL(12,0)");
        SourceTable jsonKey = new SourceTable("shop", "docs", List.of(column("doc", "jsonb", null)), List.of("doc"));
        assertThatThrownBy(() -> CreateTableStatement.of(jsonKey, TARGET, TableCreationOptions.defaults()))
                .hasMessageContaining("primary key column 'doc' would be JSON");
        SourceTable floatKey = new SourceTable("shop", "m", List.of(column("x", "float8", null)), List.of("x"));
        assertThatThrownBy(() -> CreateTableStatement.of(floatKey, TARGET, TableCreationOptions.defaults()))
                .hasMessageContaining("primary key column 'x' would be DOUBLE");
    }

    @Test
    void aKeyThatCanBeLongerThanStarRocksAllowsIsRefusedUnlessTheLimitIsRaised() {
        SourceTable wide = new SourceTable("shop", "users", List.of(column("tenant", "int8", null),
                column("email", "varchar", 30)), List.of("tenant", "email"));
        // 8 + 120 + 2 = 130 bytes
        assertThatThrownBy(() -> CreateTableStatement.of(wide, TARGET, TableCreationOptions.defaults()))
                .isInstanceOf(TableRefusedException.class)
                .hasMessageContaining("table shop.users: its primary key (tenant BIGINT, email VARCHAR(120)) can take"
                        + " 130 bytes, more than the 128 bytes");
        assertThat(CreateTableStatement.of(wide, TARGET, new TableCreationOptions(0, Map.of(), Map.of(), Map.of(),
                130)).keyColumns()).containsExactly("tenant", "email");
        SourceTable textKey = new SourceTable("shop", "tags", List.of(column("tag", "text", null)), List.of("tag"));
        assertThatThrownBy(() -> CreateTableStatement.of(textKey, TARGET, TableCreationOptions.defaults()))
                .hasMessageContaining("can take 65533 bytes");
        assertThat(CreateTableStatement.of(textKey, TARGET, new TableCreationOptions(0, Map.of(),
                Map.of("shop.tags.tag", "VARCHAR(128)"), Map.of(), 128)).columns().get(0).type())
                .isEqualTo("VARCHAR(128)");
    }

    @Test
    void namesStarRocksDoesNotTakeAreRefused() {
        SourceTable dashed = new SourceTable("shop", "order-lines", List.of(column("id", "int4", null)),
                List.of("id"));
        assertThatThrownBy(() -> CreateTableStatement.of(dashed, new TargetTable("dw", "order-lines"),
                TableCreationOptions.defaults())).isInstanceOf(TableRefusedException.class)
                .hasMessageContaining("table shop.order-lines: the table name 'order-lines' is not one StarRocks"
                        + " takes");
        SourceTable spaced = new SourceTable("shop", "t", List.of(column("id", "int4", null),
                column("unit price", "int4", null)), List.of("id"));
        assertThatThrownBy(() -> CreateTableStatement.of(spaced, TARGET, TableCreationOptions.defaults()))
                .hasMessageContaining("the column name 'unit price' is not one StarRocks takes");
        SourceTable twoIds = new SourceTable("shop", "t", List.of(column("id", "int4", null),
                column("ID", "int4", null)), List.of("id"));
        assertThatThrownBy(() -> CreateTableStatement.of(twoIds, TARGET, TableCreationOptions.defaults()))
                .hasMessageContaining("table shop.t has two columns named 'ID' apart from case");
    }

    @Test
    void aKeyColumnTheTableLacksIsRefused() {
        TableCreationOptions options = new TableCreationOptions(0, Map.of(), Map.of(),
                Map.of("shop.orders", List.of("nope")), 128);
        assertThatThrownBy(() -> CreateTableStatement.of(orders(List.of()), TARGET, options))
                .hasMessage("table shop.orders has no column 'nope' for its primary key [nope]");
    }

    @Test
    void badOptionsAreRefusedNamingTheEntry() {
        assertThatThrownBy(() -> new TableCreationOptions(0, Map.of(), Map.of("orders.total", "DECIMAL(9,2)"),
                Map.of(), 128)).hasMessageContaining("'orders.total=DECIMAL(9,2)' must name SRC_DB.TABLE.COLUMN");
        assertThatThrownBy(() -> new TableCreationOptions(0, Map.of(), Map.of("shop.orders.total", "INT; DROP"),
                Map.of(), 128)).hasMessageContaining("does not name a StarRocks type");
        assertThatThrownBy(() -> new TableCreationOptions(0, Map.of("replication_num", "1\""), Map.of(), Map.of(),
                128)).hasMessageContaining("table property 'replication_num=1\"'");
        assertThatThrownBy(() -> new TableCreationOptions(-1, Map.of(), Map.of(), Map.of(), 128))
                .hasMessageContaining("table buckets must be 0");
    }

    @Test
    void aPostgresGeneratedColumnIsLeftOutSinceNoEventCarriesItsValueAndRefusedInTheKey() {
        SourceColumn generated = new SourceColumn("total_with_tax", "numeric", 12, 2, true, null, null,
                Map.of("generated", "ALWAYS"));
        SourceTable table = new SourceTable("shop", "orders", List.of(column("order_id", "int8", null), generated,
                column("note", "text", null)), List.of("order_id"));

        CreateTableStatement create = CreateTableStatement.of(table, TARGET, TableCreationOptions.defaults());

        assertThat(create.columns()).extracting(CreateTableStatement.Column::name).containsExactly("order_id", "note");
        assertThat(create.sql()).doesNotContain("total_with_tax");
        SourceTable keyedByIt = new SourceTable("shop", "orders", List.of(column("order_id", "int8", null),
                generated), List.of("total_with_tax"));
        assertThatThrownBy(() -> CreateTableStatement.of(keyedByIt, TARGET, TableCreationOptions.defaults()))
                .isInstanceOf(TableRefusedException.class)
                .hasMessageContaining("generated column 'total_with_tax' in its primary key");
    }
}
