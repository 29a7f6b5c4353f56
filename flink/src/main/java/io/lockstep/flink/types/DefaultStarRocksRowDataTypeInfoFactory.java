package io.lockstep.flink.types;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.TypeExtractor;

/**
 * Named by {@code @TypeInfo} on {@link DefaultStarRocksRowData}: {@link DefaultStarRocksRowDataTypeInfo} for the class
 * itself. Flink also asks this factory for every subclass (it looks for a factory up the class hierarchy); a
 * subclass gets what Flink's own analysis gave it before: a POJO over all its fields (the inherited ones included)
 * when it is one, else Flink's generic type, so a subclass never loses its own class or fields across a keyBy.
 */
public final class DefaultStarRocksRowDataTypeInfoFactory extends TypeInfoFactory<DefaultStarRocksRowData> {

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public TypeInformation<DefaultStarRocksRowData> createTypeInfo(Type t,
                                                                   Map<String, TypeInformation<?>> genericParameters) {
        if (t == DefaultStarRocksRowData.class || !(t instanceof Class<?> subclass)) {
            return DefaultStarRocksRowDataTypeInfo.INSTANCE;
        }
        try {
            subclass.getConstructor(); // a POJO needs a public no-arg constructor
            Map<String, TypeInformation<?>> fields = new LinkedHashMap<>();
            for (Class<?> c = subclass; c != Object.class; c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    int modifiers = field.getModifiers();
                    if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers)) {
                        continue;
                    }
                    if (fields.containsKey(field.getName())) {
                        return new GenericTypeInfo(subclass); // a shadowed field: not a POJO for Flink either
                    }
                    fields.put(field.getName(), TypeExtractor.createTypeInfo(field.getGenericType()));
                }
            }
            return (TypeInformation) Types.POJO(subclass, fields);
        } catch (NoSuchMethodException | RuntimeException e) {
            return new GenericTypeInfo(subclass);
        }
    }
}
