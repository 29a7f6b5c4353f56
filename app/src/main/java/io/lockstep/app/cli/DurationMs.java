package io.lockstep.app.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration option into ms: a number with a unit {@code ms}, {@code s}, {@code m} or {@code h}
 * ({@code 500ms}, {@code 10s}, {@code 2m}), or a plain number of ms. Picocli names the option in the error.
 */
public final class DurationMs implements ITypeConverter<Long> {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    /**
     * @param text the option's value
     * @return the duration in ms
     * @throws TypeConversionException when the text is not a duration
     */
    @Override
    public Long convert(String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new TypeConversionException("'" + text + "' is not a duration (e.g. 500ms, 10s, 2m, or ms)");
        }
        long value;
        try {
            value = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + text + "' is too large");
        }
        String unit = m.group(2) == null ? "ms" : m.group(2);
        long factor = switch (unit) {
            case "s" -> 1_000L;
            case "m" -> 60_000L;
            case "h" -> 3_600_000L;
            default -> 1L;
        };
        if (value > Long.MAX_VALUE / factor) {
            throw new TypeConversionException("'" + text + "' is too large");
        }
        return value * factor;
    }
}
