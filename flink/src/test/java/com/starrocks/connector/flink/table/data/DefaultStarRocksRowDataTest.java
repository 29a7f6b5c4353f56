package com.starrocks.connector.flink.table.data;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import io.lockstep.flink.types.DefaultStarRocksRowDataTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class DefaultStarRocksRowDataTest {

    @Test
    void noArgConstructorHasDocumentedDefaults() {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData();

        assertThat(row.getUniqueKey()).isNull();
        assertThat(row.getDatabase()).isNull();
        assertThat(row.getTable()).isNull();
        assertThat(row.getRow()).isNull();
        assertThat(row.isTransactionEnd()).isFalse();
        assertThat(row.getSourcePartition()).isEqualTo(-1);
    }

    @Test
    void sourcePositionAndSourceAreAdditionsWithNeutralDefaults() throws Exception {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData("k", "test", "orders", "{}");
        assertThat(row.getSourcePosition()).isEqualTo(-1L);
        assertThat(row.getSource()).isNull();
        StarRocksRowData minimal = new StarRocksRowData() {
            @Override
            public String getUniqueKey() {
                return null;
            }

            @Override
            public String getDatabase() {
                return "test";
            }

            @Override
            public String getTable() {
                return "orders";
            }

            @Override
            public String getRow() {
                return "{}";
            }
        };
        assertThat(minimal.getSourcePosition()).isEqualTo(-1L);
        assertThat(minimal.getSource()).isNull();

        row.setSourcePosition(42L);
        row.setSource("oltp.all");
        DefaultStarRocksRowData same = new DefaultStarRocksRowData("k", "test", "orders", "{}");
        same.setSourcePosition(42L);
        same.setSource("oltp.all");
        assertThat(row).isEqualTo(same).hasSameHashCodeAs(same);
        same.setSourcePosition(43L);
        assertThat(row).isNotEqualTo(same);
        assertThat(row.toString()).contains("source=oltp.all").contains("sourcePosition=42");

        TypeInformation<DefaultStarRocksRowData> info = TypeInformation.of(DefaultStarRocksRowData.class);
        assertThat(info).isInstanceOf(DefaultStarRocksRowDataTypeInfo.class);
        TypeSerializer<DefaultStarRocksRowData> serializer = info.createSerializer(new ExecutionConfig().getSerializerConfig());
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(row, out);
        DefaultStarRocksRowData copy = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(copy).isEqualTo(row);
        assertThat(copy.getSourcePosition()).isEqualTo(42L);
        assertThat(copy.getSource()).isEqualTo("oltp.all");
    }

    @Test
    void databaseTableConstructorSetsTargetOnly() {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData("test", "orders");

        assertThat(row.getDatabase()).isEqualTo("test");
        assertThat(row.getTable()).isEqualTo("orders");
        assertThat(row.getRow()).isNull();
        assertThat(row.getUniqueKey()).isEqualTo("test.orders");
        assertThat(row.isTransactionEnd()).isFalse();
        assertThat(row.getSourcePartition()).isEqualTo(-1);
    }

    @Test
    void fullConstructorSetsAllFourStrings() {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData("key-1", "test", "orders", "{\"order_id\":1}");

        assertThat(row.getUniqueKey()).isEqualTo("key-1");
        assertThat(row.getDatabase()).isEqualTo("test");
        assertThat(row.getTable()).isEqualTo("orders");
        assertThat(row.getRow()).isEqualTo("{\"order_id\":1}");
        assertThat(row.isTransactionEnd()).isFalse();
        assertThat(row.getSourcePartition()).isEqualTo(-1);
    }

    @Test
    void settersRoundTripEveryField() {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData();
        row.setUniqueKey("k");
        row.setDatabase("db");
        row.setTable("t");
        row.setRow("1,2");
        row.setTransactionEnd(true);
        row.setSourcePartition(7);

        assertThat(row.getUniqueKey()).isEqualTo("k");
        assertThat(row.getDatabase()).isEqualTo("db");
        assertThat(row.getTable()).isEqualTo("t");
        assertThat(row.getRow()).isEqualTo("1,2");
        assertThat(row.isTransactionEnd()).isTrue();
        assertThat(row.getSourcePartition()).isEqualTo(7);

        row.setTransactionEnd(false);
        row.setSourcePartition(-1);
        assertThat(row.isTransactionEnd()).isFalse();
        assertThat(row.getSourcePartition()).isEqualTo(-1);
    }

    @Test
    void uniqueKeyIsDerivedFromDatabaseAndTableWhileNull() {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "test", "order_items", "{}");
        assertThat(row.getUniqueKey()).isEqualTo("test.order_items");

        row.setTable("orders");
        assertThat(row.getUniqueKey()).as("derived on every call, follows the table").isEqualTo("test.orders");

        row.setUniqueKey("explicit");
        assertThat(row.getUniqueKey()).as("an explicit key wins").isEqualTo("explicit");

        row.setUniqueKey(null);
        assertThat(row.getUniqueKey()).as("null restores the derived key").isEqualTo("test.orders");
    }

    @Test
    void uniqueKeyIsNullWhenThereIsNothingToDeriveFrom() {
        assertThat(new DefaultStarRocksRowData(null, "test", null, "{}").getUniqueKey()).isNull();
        assertThat(new DefaultStarRocksRowData(null, null, "orders", "{}").getUniqueKey()).isNull();
    }

    @Test
    void interfaceDefaultsAreNoTransactionEndAndNoPartition() {
        StarRocksRowData minimal = new StarRocksRowData() {
            @Override
            public String getUniqueKey() {
                return null;
            }

            @Override
            public String getDatabase() {
                return "db";
            }

            @Override
            public String getTable() {
                return "t";
            }

            @Override
            public String getRow() {
                return "{}";
            }
        };

        assertThat(minimal.isTransactionEnd()).isFalse();
        assertThat(minimal.getSourcePartition()).isEqualTo(-1);
    }

    @Test
    void equalityCoversAllSixFields() {
        DefaultStarRocksRowData a = row("k", "db", "t", "r", true, 3);

        assertThat(a).isEqualTo(row("k", "db", "t", "r", true, 3)).hasSameHashCodeAs(row("k", "db", "t", "r", true, 3));
        assertThat(a).isNotEqualTo(row(null, "db", "t", "r", true, 3));
        assertThat(a).isNotEqualTo(row("k", "db2", "t", "r", true, 3));
        assertThat(a).isNotEqualTo(row("k", "db", "t2", "r", true, 3));
        assertThat(a).isNotEqualTo(row("k", "db", "t", "r2", true, 3));
        assertThat(a).isNotEqualTo(row("k", "db", "t", "r", false, 3));
        assertThat(a).isNotEqualTo(row("k", "db", "t", "r", true, 4));
    }

    @Test
    void toStringNamesTheTargetButNotTheRowContent() {
        DefaultStarRocksRowData row = row(null, "test", "orders", "{\"card\":\"4111-1111\"}", true, 2);

        assertThat(row.toString())
                .contains("test.orders", "sourcePartition=2", "transactionEnd=true", "rowChars=20")
                .doesNotContain("4111");
    }

    @Test
    void travelsInItsOwnSerializerAndSurvivesIt() throws Exception {
        TypeInformation<DefaultStarRocksRowData> type = TypeInformation.of(DefaultStarRocksRowData.class);
        assertThat(type).as("travels between operators without Kryo or the generic POJO serializer")
                .isInstanceOf(DefaultStarRocksRowDataTypeInfo.class);

        TypeSerializer<DefaultStarRocksRowData> serializer = type.createSerializer(new ExecutionConfig().getSerializerConfig());
        DefaultStarRocksRowData original = row(null, "test", "orders", "{\"order_id\":1}", true, 5);
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(original, out);
        DefaultStarRocksRowData copy = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));

        assertThat(copy).isEqualTo(original);
        assertThat(copy.getUniqueKey()).isEqualTo("test.orders");
    }

    private static DefaultStarRocksRowData row(String key, String db, String table, String row, boolean end, int partition) {
        DefaultStarRocksRowData data = new DefaultStarRocksRowData(key, db, table, row);
        data.setTransactionEnd(end);
        data.setSourcePartition(partition);
        return data;
    }
}
