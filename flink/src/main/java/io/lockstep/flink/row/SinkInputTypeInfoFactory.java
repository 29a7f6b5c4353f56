package io.lockstep.flink.row;

import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** Named by {@code @TypeInfo} on {@link SinkInput}: {@link SinkInputTypeInfo}. */
public final class SinkInputTypeInfoFactory extends TypeInfoFactory<SinkInput> {

    @Override
    public TypeInformation<SinkInput> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
        return SinkInputTypeInfo.INSTANCE;
    }
}
