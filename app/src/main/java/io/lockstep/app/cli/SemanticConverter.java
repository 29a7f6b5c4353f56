package io.lockstep.app.cli;

import io.lockstep.app.job.DeliverySemantic;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --semantic}: {@code exactly-once} / {@code at-least-once}, any case. */
public final class SemanticConverter implements ITypeConverter<DeliverySemantic> {

    /**
     * @param value the option's value
     * @return the delivery semantic of that name
     * @throws TypeConversionException for any other value, naming it
     */
    @Override
    public DeliverySemantic convert(String value) {
        for (DeliverySemantic s : DeliverySemantic.values()) {
            if (s.optionValue().equalsIgnoreCase(value.trim())) {
                return s;
            }
        }
        throw new TypeConversionException("expected exactly-once or at-least-once, got '" + value + "'");
    }
}
