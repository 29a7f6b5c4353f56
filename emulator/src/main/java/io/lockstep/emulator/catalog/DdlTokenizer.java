package io.lockstep.emulator.catalog;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits DDL text into {@link DdlToken}s, dropping whitespace and comments ({@code -- ...}, {@code # ...} to end
 * of line, {@code /* ... *}{@code /}). Backquoted names keep their case and may contain any character.
 */
final class DdlTokenizer {
    private final String text;
    private int pos;
    private int line = 1;

    private DdlTokenizer(String text) {
        this.text = text;
    }

    /**
     * Never throws: text that cannot be read (an unterminated string, name or comment, an unexpected character)
     * becomes an {@link DdlToken.Kind#ERROR} token, so that the statements before it can still be applied and the
     * parser can name the statement the problem is in.
     *
     * @return the tokens, ending with one {@link DdlToken.Kind#END} token
     */
    static List<DdlToken> tokenize(String text) {
        DdlTokenizer tokenizer = new DdlTokenizer(text);
        List<DdlToken> tokens = new ArrayList<>();
        try {
            tokenizer.run(tokens);
        } catch (DdlException e) {
            tokens.add(new DdlToken(DdlToken.Kind.ERROR, e.getMessage(), tokenizer.line));
            tokens.add(new DdlToken(DdlToken.Kind.END, "", tokenizer.line));
        }
        return tokens;
    }

    private void run(List<DdlToken> tokens) throws DdlException {
        while (true) {
            skipSpaceAndComments();
            if (pos >= text.length()) {
                tokens.add(new DdlToken(DdlToken.Kind.END, "", line));
                return;
            }
            char c = text.charAt(pos);
            int startLine = line;
            if (c == '`') {
                tokens.add(new DdlToken(DdlToken.Kind.IDENTIFIER, quoted('`', "name"), startLine));
            } else if (c == '\'' || c == '"') {
                tokens.add(new DdlToken(DdlToken.Kind.STRING, quoted(c, "string"), startLine));
            } else if (Character.isDigit(c)) {
                int start = pos;
                while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
                    pos++;
                }
                tokens.add(new DdlToken(DdlToken.Kind.NUMBER, text.substring(start, pos), startLine));
            } else if (Character.isLetter(c) || c == '_') {
                int start = pos;
                while (pos < text.length()
                        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                    pos++;
                }
                tokens.add(new DdlToken(DdlToken.Kind.IDENTIFIER, text.substring(start, pos), startLine));
            } else if ("(),;=.-+".indexOf(c) >= 0) {
                pos++;
                tokens.add(new DdlToken(DdlToken.Kind.SYMBOL, String.valueOf(c), startLine));
            } else {
                throw new DdlException("unexpected character '" + c + "'");
            }
        }
    }

    private void skipSpaceAndComments() throws DdlException {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '\n') {
                line++;
                pos++;
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else if (c == '#' || (c == '-' && text.startsWith("--", pos))) {
                while (pos < text.length() && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (c == '/' && text.startsWith("/*", pos)) {
                int startLine = line;
                int end = text.indexOf("*/", pos + 2);
                if (end < 0) {
                    line = startLine;
                    throw new DdlException("comment /* is never closed");
                }
                countLines(pos, end + 2);
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private String quoted(char quote, String what) throws DdlException {
        int startLine = line;
        StringBuilder out = new StringBuilder();
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == quote) {
                if (pos + 1 < text.length() && text.charAt(pos + 1) == quote) {
                    out.append(quote);
                    pos += 2;
                    continue;
                }
                pos++;
                return out.toString();
            }
            if (c == '\\' && quote != '`' && pos + 1 < text.length()) {
                out.append(text.charAt(pos + 1));
                pos += 2;
                continue;
            }
            if (c == '\n') {
                line++;
            }
            out.append(c);
            pos++;
        }
        line = startLine;
        throw new DdlException(what + " starting with " + quote + " is never closed");
    }

    private void countLines(int from, int to) {
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
    }
}
