package io.lockstep.flink.options;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * One entry of the sink option catalogue: key, value type, default, description, and the parser
 * that turns the option's text into a typed value or rejects it. All entries live in
 * {@link SinkOptionDefinitions}; validation, typed getters and {@code docs/options.md} are
 * derived from them.
 *
 * <p>Immutable and thread safe.
 *
 * @param <T> the parsed value type (String, Integer, Long, Boolean or an enum)
 */
public final class SinkOption<T> {

    private static final Pattern USER_INFO = Pattern.compile("//[^/@;\\s]*@");

    private final String key;
    private final String typeName;
    @Nullable private final T defaultValue;
    private final String defaultText;
    private final boolean required;
    private final boolean secret;
    private final String description;
    private final Function<String, T> parser;

    private SinkOption(Builder<T> builder) {
        this.key = Objects.requireNonNull(builder.key, "key");
        this.typeName = Objects.requireNonNull(builder.typeName, "typeName");
        this.defaultValue = builder.defaultValue;
        this.defaultText = builder.defaultText != null
                ? builder.defaultText
                : (builder.defaultValue == null ? "(none)" : displayValue(builder.defaultValue));
        this.required = builder.required;
        this.secret = builder.secret;
        this.description = Objects.requireNonNull(builder.description, "description");
        this.parser = Objects.requireNonNull(builder.parser, "parser");
    }

    /** @return the option key, e.g. {@code sink.buffer-flush.interval-ms} */
    public String key() {
        return key;
    }

    /** @return the value type as documented, e.g. {@code Long} or {@code Enum (AUTO, V1, V2)} */
    public String typeName() {
        return typeName;
    }

    /** @return the value used when the option is absent, or {@code null} when there is none */
    @Nullable
    public T defaultValue() {
        return defaultValue;
    }

    /** @return the default as documented, e.g. {@code 134217728 (128 MiB)} or {@code (none)} */
    public String defaultText() {
        return defaultText;
    }

    /** @return whether building the options fails when this option is absent or blank */
    public boolean isRequired() {
        return required;
    }

    /** @return whether the value must never appear in messages or logs (passwords) */
    public boolean isSecret() {
        return secret;
    }

    /** @return one-paragraph meaning of the option, with units */
    public String description() {
        return description;
    }

    /**
     * Parses the option's text.
     *
     * @param text the value as given to {@code withProperty}
     * @return the typed value
     * @throws InvalidSinkOptionException naming the option, the value (masked if secret) and the
     *     expected form
     */
    public T parse(String text) {
        if (text == null) {
            throw new InvalidSinkOptionException(key, "Invalid sink option '" + key
                    + "': the value is null; " + (required ? "the option is required" : "omit the option to use its default"));
        }
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidSinkOptionException(key, "Invalid sink option '" + key + "' = '"
                    + (secret ? "***" : withoutUserInfo(text)) + "': " + e.getMessage());
        }
    }

    /**
     * Reads this option from an option map (keys as given to the builder).
     *
     * @param options the option map
     * @return the parsed value if the key is present, else the default (may be {@code null})
     * @throws InvalidSinkOptionException if the key is present with a null value or a value that
     *     does not parse
     */
    @Nullable
    public T valueIn(Map<String, String> options) {
        if (!options.containsKey(key)) {
            return defaultValue;
        }
        return parse(options.get(key));
    }

    @Override
    public String toString() {
        return key;
    }

    /** Masks URL user info ({@code scheme://user:password@host} → {@code scheme://***@host}) in a shown value. */
    static String withoutUserInfo(String text) {
        return USER_INFO.matcher(text).replaceAll("//***@");
    }

    private static String displayValue(Object value) {
        if (value instanceof SinkSemantic) {
            return ((SinkSemantic) value).optionValue();
        }
        if (value instanceof StreamLoadFormat) {
            return ((StreamLoadFormat) value).headerValue();
        }
        return String.valueOf(value);
    }

    // ---------------------------------------------------------------- definition helpers

    /** @return a builder for a free-text option */
    static Builder<String> stringOption(String key) {
        return new Builder<String>(key, "String", text -> text);
    }

    /** @return a builder for an option whose text must not be blank */
    static Builder<String> nonBlankStringOption(String key) {
        return new Builder<String>(key, "String", text -> {
            if (text.isBlank()) {
                throw new IllegalArgumentException("expected a non-blank value");
            }
            return text;
        });
    }

    /** @return a builder for a free-text option whose text must match {@code pattern} */
    static Builder<String> patternOption(String key, Pattern pattern, String expected) {
        return new Builder<String>(key, "String", text -> {
            if (!pattern.matcher(text).matches()) {
                throw new IllegalArgumentException(expected);
            }
            return text;
        });
    }

    /** @return a builder for a boolean option accepting {@code true} / {@code false} (any case) */
    static Builder<Boolean> booleanOption(String key) {
        return new Builder<Boolean>(key, "Boolean", text -> {
            String value = text.trim().toLowerCase(Locale.ROOT);
            if (value.equals("true")) {
                return Boolean.TRUE;
            }
            if (value.equals("false")) {
                return Boolean.FALSE;
            }
            throw new IllegalArgumentException("expected 'true' or 'false'");
        });
    }

    /** @return a builder for an integer option within {@code [min, max]} */
    static Builder<Integer> intOption(String key, int min, int max) {
        return new Builder<Integer>(key, "Integer",
                text -> (int) parseWhole(text, min, max, "an integer"));
    }

    /** @return a builder for a long option within {@code [min, max]} */
    static Builder<Long> longOption(String key, long min, long max) {
        return new Builder<Long>(key, "Long", text -> parseWhole(text, min, max, "a whole number"));
    }

    /** @return a builder for an option of any type (enum, list) parsed by {@code parser} */
    static <E> Builder<E> typedOption(String key, String typeName, Function<String, E> parser) {
        return new Builder<E>(key, typeName, parser);
    }

    private static long parseWhole(String text, long min, long max, String what) {
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected " + what + " in " + range(min, max));
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("expected " + what + " in " + range(min, max));
        }
        return value;
    }

    private static String range(long min, long max) {
        String upper = (max == Long.MAX_VALUE || max == Integer.MAX_VALUE) ? "" : String.valueOf(max);
        return "[" + min + ", " + (upper.isEmpty() ? "..." : upper) + "]";
    }

    /** Fluent definition of one {@link SinkOption}; used only by {@link SinkOptionDefinitions}. */
    static final class Builder<T> {
        private final String key;
        private final String typeName;
        private final Function<String, T> parser;
        private T defaultValue;
        private String defaultText;
        private boolean required;
        private boolean secret;
        private String description;

        private Builder(String key, String typeName, Function<String, T> parser) {
            this.key = key;
            this.typeName = typeName;
            this.parser = parser;
        }

        Builder<T> defaultValue(T value) {
            this.defaultValue = value;
            return this;
        }

        Builder<T> defaultText(String text) {
            this.defaultText = text;
            return this;
        }

        Builder<T> required() {
            this.required = true;
            return this;
        }

        Builder<T> secret() {
            this.secret = true;
            return this;
        }

        SinkOption<T> description(String text) {
            this.description = text;
            return new SinkOption<>(this);
        }
    }
}
