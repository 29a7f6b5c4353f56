package io.lockstep.emulator.txn;

import java.util.regex.Pattern;

/**
 * The FE's label syntax check (docs/protocol.md#labels-and-label-state, StarRocks {@code FeNameFormat.checkLabel};
 * docs/protocol.md#doris-endpoints-redirects-and-headers {@code label}).
 */
public final class LabelFormat {
    /** StarRocks: letters, digits, {@code _} and {@code -}, 1 to 128 characters. */
    public static final String LABEL_REGEX = "^[-\\w]{1,128}$";
    /** Doris: letters, digits, {@code _}, {@code -} and {@code :}, 1 to 128 characters. */
    public static final String DORIS_LABEL_REGEX = "^[-_A-Za-z0-9:]{1,128}$";
    private static final Pattern LABEL = Pattern.compile(LABEL_REGEX);

    private LabelFormat() {
    }

    /**
     * Checks a label against StarRocks' syntax.
     *
     * @throws TransactionException {@link TransactionException.Reason#LABEL_FORMAT} when the label is invalid
     */
    public static void check(String label) throws TransactionException {
        check(label, LABEL, LABEL_REGEX);
    }

    /**
     * Checks a label against a syntax.
     *
     * @param pattern the compiled {@code regex}
     * @throws TransactionException {@link TransactionException.Reason#LABEL_FORMAT} when the label is invalid
     */
    public static void check(String label, Pattern pattern, String regex) throws TransactionException {
        if (label == null || !pattern.matcher(label).matches()) {
            // "Label format error. regex: ..." is from FeNameFormat; the ", label: L" suffix is ours.
            throw new TransactionException(TransactionException.Reason.LABEL_FORMAT,
                    "Label format error. regex: " + regex + ", label: " + label);
        }
    }
}
