package io.lockstep.emulator.load;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a {@code where} header into tokens: names (bare or backquoted, quotes kept), quoted strings (quotes
 * kept), numbers, comparison operators and {@code ( ) ,}.
 */
final class WhereLexer {
    private WhereLexer() {
    }

    /**
     * @throws LoadFormatException ANALYSIS_ERROR for an unterminated quote or an unexpected character;
     *                             NOT_IMPLEMENTED_ERROR for arithmetic operators
     */
    static List<String> tokens(String text) throws LoadFormatException {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '\'' || c == '"' || c == '`') {
                int end = text.indexOf(c, i + 1);
                if (end < 0) {
                    throw new LoadFormatException("ANALYSIS_ERROR", "invalid where '" + text + "': unterminated "
                            + c);
                }
                tokens.add(text.substring(i, end + 1));
                i = end + 1;
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '.'
                    || ((c == '-' || c == '+') && i + 1 < text.length() && Character.isDigit(text.charAt(i + 1))
                    && (tokens.isEmpty() || isOperatorOrOpen(tokens.get(tokens.size() - 1))))) {
                int start = i++;
                while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_'
                        || text.charAt(i) == '.')) {
                    i++;
                }
                tokens.add(text.substring(start, i));
            } else if (c == '<' || c == '>' || c == '!' || c == '=') {
                int start = i++;
                if (i < text.length() && (text.charAt(i) == '=' || (c == '<' && text.charAt(i) == '>'))) {
                    i++;
                }
                tokens.add(text.substring(start, i));
            } else if (c == '(' || c == ')' || c == ',') {
                tokens.add(String.valueOf(c));
                i++;
            } else if ("+-*/%".indexOf(c) >= 0) {
                throw new LoadFormatException("NOT_IMPLEMENTED_ERROR", "where '" + text
                        + "' is not supported by the emulator: arithmetic is not evaluated");
            } else {
                throw new LoadFormatException("ANALYSIS_ERROR", "invalid where '" + text + "': unexpected '" + c
                        + "'");
            }
        }
        return tokens;
    }

    private static boolean isOperatorOrOpen(String token) {
        return token.equals("(") || token.equals(",") || token.matches("[<>=!]+")
                || token.equalsIgnoreCase("AND") || token.equalsIgnoreCase("BETWEEN") || token.equalsIgnoreCase("IN");
    }
}
