package io.lockstep.flink.types;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.flink.row.LoadRowTypeInfoFactory;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Named by {@code @TypeInfo} on {@link DefaultStarRocksRowData}: {@link DefaultStarRocksRowDataTypeInfo} for the
 * class itself. Flink also asks this factory for every subclass (it looks for a factory up the class hierarchy); a
 * subclass gets what Flink's own analysis gave it before ({@link LoadRowTypeInfoFactory#subclassTypeInfo}), so a
 * subclass never loses its own class or fields across a keyBy.
 */
public final class DefaultStarRocksRowDataTypeInfoFactory extends TypeInfoFactory<DefaultStarRocksRowData> {

    @Override
    @SuppressWarnings("unchecked")
    public TypeInformation<DefaultStarRocksRowData> createTypeInfo(Type t,
                                                                   Map<String, TypeInformation<?>> genericParameters) {
        if (t == DefaultStarRocksRowData.class || !(t instanceof Class<?> subclass)) {
            return DefaultStarRocksRowDataTypeInfo.INSTANCE;
        }
        return (TypeInformation<DefaultStarRocksRowData>) LoadRowTypeInfoFactory.subclassTypeInfo(subclass);
    }
}
