package io.lockstep.emulator.mysql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a MySQL/StarRocks statement into tokens, keeping every character (blanks and comments become
 * {@link Kind#SPACE} tokens), so that a statement can be rewritten token by token and joined back. Lexical rules as
 * StarRocks' grammar ({@code fe/fe-core/src/main/java/com/starrocks/sql/parser/StarRocksLex.g4}): back-quoted
 * identifiers ({@code ``} inside is one back-quote), string literals in single or double quotes (a doubled quote or a
 * backslash escape inside), {@code --}, {@code #} and {@code /* *}{@code /} comments, {@code ?} placeholders,
 * {@code @user} and {@code @@system} variables.
 *
 * @throws SqlError 1064 for an unterminated string, back-quoted name or comment
 */
final class SqlLexer {

    /** What a token is. */
    enum Kind { WORD, QUOTED_NAME, STRING, NUMBER, PARAM, VARIABLE, SYMBOL, SPACE }

    /**
     * One token.
     *
     * @param kind  what it is
     * @param text  its characters as written
     * @param value the name of a {@link Kind#QUOTED_NAME} without quotes, the decoded content of a
     *              {@link Kind#STRING}; else the text
     * @param start the offset of its first character in the statement
     */
    record Token(Kind kind, String text, String value, int start) {
        /** The offset after its last character. */
        int end() {
            return start + text.length();
        }

        boolean is(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean isSymbol(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }

        /** A plain or back-quoted identifier. */
        boolean isName() {
            return kind == Kind.WORD || kind == Kind.QUOTED_NAME;
        }
    }

    private SqlLexer() {
    }

    /**
     * Splits {@code tokens[from, to)} at the commas outside parentheses (a select list, function arguments, SET
     * assignments).
     *
     * @return each part as {@code {start, end}} token indexes, end exclusive; one empty part when the range is empty
     */
    static List<int[]> splitAtTopLevelCommas(List<Token> tokens, int from, int to) {
        List<int[]> parts = new ArrayList<>();
        int depth = 0;
        int start = from;
        for (int i = from; i < to; i++) {
            Token t = tokens.get(i);
            depth += t.isSymbol("(") ? 1 : t.isSymbol(")") ? -1 : 0;
            if (depth == 0 && t.isSymbol(",")) {
                parts.add(new int[] {start, i});
                start = i + 1;
            }
        }
        parts.add(new int[] {start, to});
        return parts;
    }

    static List<Token> tokens(String sql) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            int start = i;
            if (Character.isWhitespace(c)) {
                while (i < n && Character.isWhitespace(sql.charAt(i))) {
                    i++;
                }
                out.add(new Token(Kind.SPACE, sql.substring(start, i), " ", start));
            } else if (c == '#' || (c == '-' && sql.startsWith("--", i))) {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
                out.add(new Token(Kind.SPACE, sql.substring(start, i), " ", start));
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    throw SqlErrors.syntax(sql, i, "unterminated comment");
                }
                i = end + 2;
                out.add(new Token(Kind.SPACE, sql.substring(start, i), " ", start));
            } else if (c == '\'' || c == '"') {
                StringBuilder value = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw SqlErrors.syntax(sql, start, "unterminated string literal");
                    }
                    char ch = sql.charAt(i);
                    if (ch == '\\' && i + 1 < n) {
                        value.append(unescape(sql.charAt(i + 1)));
                        i += 2;
                    } else if (ch == c && i + 1 < n && sql.charAt(i + 1) == c) {
                        value.append(c);
                        i += 2;
                    } else if (ch == c) {
                        i++;
                        break;
                    } else {
                        value.append(ch);
                        i++;
                    }
                }
                out.add(new Token(Kind.STRING, sql.substring(start, i), value.toString(), start));
            } else if (c == '`') {
                StringBuilder value = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw SqlErrors.syntax(sql, start, "unterminated back-quoted name");
                    }
                    char ch = sql.charAt(i);
                    if (ch == '`' && i + 1 < n && sql.charAt(i + 1) == '`') {
                        value.append('`');
                        i += 2;
                    } else if (ch == '`') {
                        i++;
                        break;
                    } else {
                        value.append(ch);
                        i++;
                    }
                }
                out.add(new Token(Kind.QUOTED_NAME, sql.substring(start, i), value.toString(), start));
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.'
                        || ((sql.charAt(i) == '+' || sql.charAt(i) == '-')
                        && (sql.charAt(i - 1) == 'e' || sql.charAt(i - 1) == 'E')))) {
                    i++;
                }
                String text = sql.substring(start, i);
                out.add(new Token(isNumber(text) ? Kind.NUMBER : Kind.WORD, text, text, start));
            } else if (Character.isLetter(c) || c == '_' || c == '$') {
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                        || sql.charAt(i) == '$')) {
                    i++;
                }
                String text = sql.substring(start, i);
                out.add(new Token(Kind.WORD, text, text, start));
            } else if (c == '@') {
                i++;
                if (i < n && sql.charAt(i) == '@') {
                    i++;
                }
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                        || sql.charAt(i) == '.' || sql.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Token(Kind.VARIABLE, sql.substring(start, i), sql.substring(start, i), start));
            } else if (c == '?') {
                i++;
                out.add(new Token(Kind.PARAM, "?", "?", start));
            } else {
                i++;
                if (i < n && isTwoCharSymbol(c, sql.charAt(i))) {
                    i++;
                }
                String text = sql.substring(start, i);
                out.add(new Token(Kind.SYMBOL, text, text, start));
            }
        }
        return out;
    }

    /** The statement's tokens joined back. */
    static String join(List<Token> tokens) {
        StringBuilder out = new StringBuilder();
        tokens.forEach(t -> out.append(t.text()));
        return out.toString();
    }

    /** The number of {@code ?} placeholders. */
    static int placeholders(String sql) {
        return (int) tokens(sql).stream().filter(t -> t.kind() == Kind.PARAM).count();
    }

    /** A string literal in single quotes, with quotes and backslashes escaped. */
    static String quote(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    private static boolean isNumber(String text) {
        return text.matches("(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    }

    private static boolean isTwoCharSymbol(char a, char b) {
        String s = "" + a + b;
        return s.equals("<=") || s.equals(">=") || s.equals("<>") || s.equals("!=") || s.equals("||")
                || s.equals("&&") || s.equals("<<") || s.equals(">>") || s.equals(":=");
    }

    private static char unescape(char c) {
        return switch (c) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case '0' -> '\0';
            case 'b' -> '\b';
            case 'Z' -> (char) 26;
            default -> c;
        };
    }
}
