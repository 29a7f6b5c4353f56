package io.lockstep.flink.options;

/**
 * A sink option (or a combination of options) is missing, malformed or not supported. The
 * message names the option, the rejected value (never a password) and what is expected;
 * {@link #getOptionKey()} gives the option for programmatic checks.
 *
 * <p>Thrown at build time by {@code StarRocksSinkOptions.Builder.build()}, by
 * {@code StarRocksSinkOptions.addTableProperties} and by {@code SinkFunctionFactory}.
 */
public class InvalidSinkOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String optionKey;

    /**
     * @param optionKey the option that was rejected (for cross-option rules: the option the user
     *     should change)
     * @param message full message naming the option, the value and the expectation
     */
    public InvalidSinkOptionException(String optionKey, String message) {
        super(message);
        this.optionKey = optionKey;
    }

    /** @return the key of the rejected option, e.g. {@code sink.semantic} */
    public String getOptionKey() {
        return optionKey;
    }
}
