package io.lockstep.emulator.mysql;

import java.util.Locale;

/**
 * Rewrites a MySQL-dialect query over {@code information_schema} into the SQL the emulator's information-schema
 * database (H2) runs: the schema name {@code information_schema} (any case, back-quoted or not) becomes
 * {@link #SCHEMA}, back-quoted identifiers become double-quoted ones, MySQL's {@code IF(c, a, b)} becomes H2's
 * {@code CASEWHEN(c, a, b)}, {@code COLLATE <name>} clauses (MySQL Connector/J writes {@code COLLATE utf8mb4_bin}
 * style clauses into its DatabaseMetaData queries) are dropped, and a {@code HAVING} without {@code GROUP BY}, which
 * MySQL evaluates over the select list's aliases (Connector/J's {@code getTables} filters its computed TABLE_TYPE so),
 * becomes a {@code WHERE} over the query as a derived table. String literals and comments are copied unchanged.
 */
final class InformationSchemaSql {
    /** The H2 schema that holds the StarRocks-shaped tables (H2 keeps its own INFORMATION_SCHEMA). */
    static final String SCHEMA = "sr_information_schema";
    /** The database name clients use. */
    static final String NAME = "information_schema";

    private InformationSchemaSql() {
    }

    /** True when the statement names {@code information_schema} outside string literals. */
    static boolean references(String sql) {
        return !rewrite(sql, true).equals(rewriteWithout(sql));
    }

    private static String rewriteWithout(String sql) {
        return rewrite(sql, false);
    }

    /** The statement as H2 runs it against the information-schema database. */
    static String rewrite(String sql) {
        return havingOverAliases(rewrite(sql, true));
    }

    /** {@code SELECT .. HAVING c [ORDER BY o]} without GROUP BY → {@code SELECT * FROM (SELECT .. [ORDER BY o]) q WHERE c}. */
    private static String havingOverAliases(String sql) {
        int having = topLevel(sql, "HAVING");
        if (having < 0 || topLevel(sql, "GROUP") >= 0) {
            return sql;
        }
        int order = topLevel(sql, "ORDER");
        String condition = order > having ? sql.substring(having + 6, order) : sql.substring(having + 6);
        // the ORDER BY may name columns the select list does not carry, so it stays inside; H2 keeps a derived
        // table's order only with a row limit, and the outer filter reads the derived rows in that order
        String ordered = order > having ? " " + sql.substring(order) + " FETCH FIRST 2147483647 ROWS ONLY" : "";
        return "SELECT * FROM (" + sql.substring(0, having) + ordered + ") AS lockstep_q WHERE " + condition;
    }

    /** Index of a keyword outside parentheses, quotes and identifiers' insides, or -1. */
    private static int topLevel(String sql, String keyword) {
        int depth = 0;
        int i = 0;
        while (i < sql.length()) {
            char ch = sql.charAt(i);
            if (ch == '\'' || ch == '"') {
                i = stringEnd(sql, i);
                continue;
            }
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (depth == 0 && sql.regionMatches(true, i, keyword, 0, keyword.length())
                    && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)) && sql.charAt(i - 1) != '_')
                    && (i + keyword.length() == sql.length()
                    || !Character.isLetterOrDigit(sql.charAt(i + keyword.length()))
                    && sql.charAt(i + keyword.length()) != '_')) {
                return i;
            }
            i++;
        }
        return -1;
    }

    private static String rewrite(String sql, boolean renameSchema) {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char ch = sql.charAt(i);
            if (ch == '\'' || ch == '"') {
                int end = stringEnd(sql, i);
                out.append(sql, i, end);
                i = end;
            } else if (sql.startsWith("--", i) || ch == '#' || sql.startsWith("/*", i)) {
                int end = ch == '/' ? sql.indexOf("*/", i + 2) : sql.indexOf('\n', i);
                end = end < 0 ? n : ch == '/' ? end + 2 : end;
                out.append(sql, i, end);
                i = end;
            } else if (ch == '`') {
                int end = sql.indexOf('`', i + 1);
                if (end < 0) {
                    end = n - 1;
                }
                String name = sql.substring(i + 1, end);
                out.append(renameSchema && name.equalsIgnoreCase(NAME) ? SCHEMA : '"' + name.replace("\"", "\"\"") + '"');
                i = end + 1;
            } else if (Character.isLetter(ch) || ch == '_') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                        || sql.charAt(end) == '$')) {
                    end++;
                }
                String word = sql.substring(i, end);
                String upper = word.toUpperCase(Locale.ROOT);
                int next = skipBlanks(sql, end);
                if (renameSchema && word.equalsIgnoreCase(NAME)) {
                    out.append(SCHEMA);
                } else if (upper.equals("IF") && next < n && sql.charAt(next) == '(') {
                    out.append("CASEWHEN");
                } else if (upper.equals("COLLATE") && next < n) {
                    int nameEnd = next;
                    while (nameEnd < n && (Character.isLetterOrDigit(sql.charAt(nameEnd)) || sql.charAt(nameEnd) == '_')) {
                        nameEnd++;
                    }
                    end = nameEnd;
                    out.append(' ');
                } else {
                    out.append(word);
                }
                i = end;
            } else {
                out.append(ch);
                i++;
            }
        }
        return out.toString();
    }

    private static int skipBlanks(String sql, int from) {
        int i = from;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    /** Index after the string literal starting at {@code start} (a doubled quote or a backslash escapes). */
    private static int stringEnd(String sql, int start) {
        char quote = sql.charAt(start);
        int i = start + 1;
        while (i < sql.length()) {
            char ch = sql.charAt(i);
            if (ch == '\\') {
                i += 2;
            } else if (ch == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }
}
