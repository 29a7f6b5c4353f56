package com.starrocks.connector.flink.table.data;

import com.esotericsoftware.kryo.DefaultSerializer;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.LoadRowKryoSerializer;
import io.lockstep.flink.types.DefaultStarRocksRowDataTypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * Mutable {@link StarRocksRowData} with setters for all six documented fields and the two additions
 * {@code sourcePosition} and {@code source}: Lockstep's {@link LoadRow} under the StarRocks connector's documented
 * name (it adds only the documented constructors). A Flink POJO (public no-arg constructor, getters and setters).
 * Between operators it travels in its own Flink serializer
 * ({@code io.lockstep.flink.types.DefaultStarRocksRowDataSerializer}, named through {@code @TypeInfo}), not Flink's
 * generic POJO serializer; state written by the POJO serializer restores and is migrated.
 *
 * <p>Defaults: every string field {@code null}, {@code transactionEnd = false},
 * {@code sourcePartition = -1}, {@code sourcePosition = -1}. {@link #getUniqueKey()} derives {@code database.table} while no
 * explicit key is set. Not thread safe: one instance belongs to one operator at a time.
 *
 * <p>Source: the {@code DefaultStarRocksRowData} of StarRocks' multi-table transaction guide
 * (https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/; same constructors, setters and getters).
 */
@TypeInfo(DefaultStarRocksRowDataTypeInfoFactory.class)
@DefaultSerializer(LoadRowKryoSerializer.class) // a row held as UTF-8 bytes crosses Kryo with its text
public class DefaultStarRocksRowData extends LoadRow implements StarRocksRowData {

    /** Creates an empty row: all strings {@code null}, no transaction end, partition -1. */
    public DefaultStarRocksRowData() {
    }

    /**
     * Creates a row bound to a table; the row content is set later with {@link #setRow}.
     *
     * @param database target database
     * @param table target table
     */
    public DefaultStarRocksRowData(String database, String table) {
        this(null, database, table, null);
    }

    /**
     * Creates a complete row.
     *
     * @param uniqueKey region routing key, or {@code null} to derive {@code database.table}
     * @param database target database
     * @param table target table
     * @param row serialized row (one JSON object or one CSV line)
     */
    public DefaultStarRocksRowData(String uniqueKey, String database, String table, String row) {
        super(uniqueKey, database, table, row);
    }
}
