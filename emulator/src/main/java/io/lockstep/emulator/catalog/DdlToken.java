package io.lockstep.emulator.catalog;

/**
 * One token of DDL text, with the 1-based line it starts on.
 *
 * @param kind   what the token is
 * @param text   identifier (unquoted, backquotes removed), string literal (quotes removed), number or symbol
 * @param line   1-based line in the DDL text
 */
record DdlToken(Kind kind, String text, int line) {

    enum Kind {
        /** A bare word or a backquoted name. */
        IDENTIFIER,
        /** A single- or double-quoted string. */
        STRING,
        /** An unsigned integer or decimal number. */
        NUMBER,
        /** One of {@code ( ) , ; = .}. */
        SYMBOL,
        /** Text that could not be read; {@code text} holds the problem. The parser reports it. */
        ERROR,
        /** End of the text. */
        END
    }

    /** True for a bare identifier equal to the keyword, ignoring case. */
    boolean isKeyword(String keyword) {
        return kind == Kind.IDENTIFIER && text.equalsIgnoreCase(keyword);
    }

    boolean isSymbol(String symbol) {
        return kind == Kind.SYMBOL && text.equals(symbol);
    }

    /** How the token is shown in an error message. */
    String describe() {
        return switch (kind) {
            case END -> "end of input";
            case STRING -> "'" + text + "'";
            default -> "'" + text + "'";
        };
    }
}
