package io.lockstep.flink.row;

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
 * Named by {@code @TypeInfo} on {@link LoadRow}: {@link LoadRowTypeInfo} for the class itself. Flink also asks this
 * factory for every subclass without a {@code @TypeInfo} of its own (it looks for a factory up the class hierarchy);
 * a subclass gets what Flink's own analysis gives it ({@link #subclassTypeInfo}), so it never loses its own class or
 * fields across a keyBy.
 */
public final class LoadRowTypeInfoFactory extends TypeInfoFactory<LoadRow> {

    @Override
    @SuppressWarnings("unchecked")
    public TypeInformation<LoadRow> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
        if (t == LoadRow.class || !(t instanceof Class<?> subclass)) {
            return LoadRowTypeInfo.INSTANCE;
        }
        return (TypeInformation<LoadRow>) subclassTypeInfo(subclass);
    }

    /**
     * What Flink's own type analysis gives a subclass of a plain row class: a POJO over all its fields (the
     * inherited ones included) when it is one, else Flink's generic type.
     *
     * @param subclass a subclass of {@link LoadRow}
     * @return its type information
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static TypeInformation<?> subclassTypeInfo(Class<?> subclass) {
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
            return Types.POJO(subclass, fields);
        } catch (NoSuchMethodException | RuntimeException e) {
            return new GenericTypeInfo(subclass);
        }
    }
}
