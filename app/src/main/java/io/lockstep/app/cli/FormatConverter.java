package io.lockstep.app.cli;

import io.lockstep.app.event.CdcFormat;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code --format} through the input-format registry ({@link CdcFormat#parse}); picocli names the option in
 * the error, which names the value and the accepted formats.
 */
public final class FormatConverter implements ITypeConverter<CdcFormat> {

    /**
     * @param value the option's value, any case
     * @return the format of that name
     * @throws TypeConversionException for any other name
     */
    @Override
    public CdcFormat convert(String value) {
        try {
            return CdcFormat.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
