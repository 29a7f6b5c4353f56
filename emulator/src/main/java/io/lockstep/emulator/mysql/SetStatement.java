package io.lockstep.emulator.mysql;

import io.lockstep.emulator.mysql.SqlLexer.Kind;
import io.lockstep.emulator.mysql.SqlLexer.Token;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a {@code SET} statement as StarRocks' FE does ({@code fe/fe-core/src/main/java/com/starrocks/qe/
 * SetExecutor.java}, grammar {@code sql/parser/StarRocks.g4} {@code setStatement}): comma-separated assignments of
 * {@code [SESSION|LOCAL] name = value}, {@code @@[session.|local.]name = value}, {@code @user_var = value},
 * {@code NAMES charset [COLLATE collation]}, {@code CHARACTER SET|CHARSET charset}, and
 * {@code [SESSION] TRANSACTION ISOLATION LEVEL ... | READ ONLY | READ WRITE}. A value is a literal, {@code ON} /
 * {@code OFF} / {@code DEFAULT}, or {@code @@another_variable}. Every assignment is checked before any is applied, so
 * a failing statement changes nothing. {@code SET GLOBAL} is refused: the emulator keeps variables per session.
 */
final class SetStatement {
    private final List<Token> tokens;
    private int position;

    private SetStatement(String sql) {
        this.tokens = SqlLexer.tokens(sql).stream().filter(t -> t.kind() != Kind.SPACE).toList();
    }

    /**
     * Applies a SET statement.
     *
     * @param sql           the statement, starting with SET
     * @param variables     the session's system variables
     * @param userVariables the session's {@code @name} variables (lower-case names)
     * @throws SqlError 1064 for a malformed statement, or as {@link SystemVariables#set}
     */
    static void run(String sql, SystemVariables variables, Map<String, Object> userVariables) {
        new SetStatement(sql).apply(sql, variables, userVariables);
    }

    private void apply(String sql, SystemVariables variables, Map<String, Object> userVariables) {
        expectWord("SET", sql);
        List<Runnable> assignments = new ArrayList<>();
        do {
            Token first = next(sql);
            if (first.is("GLOBAL") || (first.kind() == Kind.VARIABLE && first.text().toLowerCase(Locale.ROOT)
                    .startsWith("@@global."))) {
                throw new SqlError(SqlError.NOT_SUPPORTED, "42000", "the emulator keeps variables per session: "
                        + "use SET SESSION instead of SET GLOBAL");
            }
            if (first.is("SESSION") || first.is("LOCAL")) {
                first = next(sql);
            }
            if (first.is("NAMES")) {
                String charset = value(sql).toString();
                if (consumeWord("COLLATE")) {
                    value(sql);
                }
                for (String name : List.of("character_set_client", "character_set_connection",
                        "character_set_results")) {
                    assignments.add(() -> variables.set(name, charset));
                }
            } else if (first.is("CHARSET") || first.is("CHARACTER") && consumeWord("SET")) {
                String charset = value(sql).toString();
                assignments.add(() -> variables.set("character_set_client", charset));
                assignments.add(() -> variables.set("character_set_results", charset));
            } else if (first.is("TRANSACTION")) {
                transaction(sql, variables, assignments);
            } else if (first.kind() == Kind.VARIABLE && !first.text().startsWith("@@")) {
                String name = first.text().substring(1).toLowerCase(Locale.ROOT);
                expectAssignment(sql);
                Object value = value(sql);
                Object stored = value == Defaulted.DEFAULT ? null : value;
                assignments.add(() -> userVariables.put(name, stored));
            } else if (first.isName() || first.kind() == Kind.VARIABLE) {
                String name = first.kind() == Kind.VARIABLE ? first.text().substring(2) : first.value();
                variables.get(name); // 1193 before anything is applied
                expectAssignment(sql);
                Object value = value(sql);
                if (value instanceof String text && text.startsWith("@@")) {
                    value = variables.get(text.substring(2));
                }
                Object v = value == Defaulted.DEFAULT ? null : value;
                variables.check(name, v);
                assignments.add(() -> variables.set(name, v));
            } else {
                throw syntax(sql, first);
            }
        } while (consumeComma());
        if (position < tokens.size()) {
            throw syntax(sql, tokens.get(position));
        }
        assignments.forEach(Runnable::run);
    }

    private void transaction(String sql, SystemVariables variables, List<Runnable> assignments) {
        do {
            Token t = next(sql);
            if (t.is("ISOLATION")) {
                expectWord("LEVEL", sql);
                StringBuilder level = new StringBuilder(next(sql).text());
                if (position < tokens.size() && tokens.get(position).kind() == Kind.WORD
                        && !tokens.get(position).isSymbol(",")) {
                    level.append('-').append(next(sql).text());
                }
                String text = level.toString().toUpperCase(Locale.ROOT);
                variables.check("transaction_isolation", text);
                assignments.add(() -> variables.set("transaction_isolation", text));
            } else if (t.is("READ")) {
                Token mode = next(sql);
                long readOnly = mode.is("ONLY") ? 1 : 0;
                if (!mode.is("ONLY") && !mode.is("WRITE")) {
                    throw syntax(sql, mode);
                }
                assignments.add(() -> variables.set("transaction_read_only", readOnly));
            } else {
                throw syntax(sql, t);
            }
        } while (consumeComma());
    }

    /** Marks {@code DEFAULT}: the variable goes back to its default. */
    private enum Defaulted { DEFAULT }

    private Object value(String sql) {
        Token t = next(sql);
        boolean negative = false;
        if (t.isSymbol("-") || t.isSymbol("+")) {
            negative = t.isSymbol("-");
            t = next(sql);
        }
        return switch (t.kind()) {
            case STRING -> t.value();
            case NUMBER -> negative ? new BigDecimal(t.text()).negate() : new BigDecimal(t.text());
            case VARIABLE -> t.text();
            case WORD, QUOTED_NAME -> t.is("DEFAULT") ? Defaulted.DEFAULT : t.is("NULL") ? "" : t.value();
            default -> throw syntax(sql, t);
        };
    }

    private void expectAssignment(String sql) {
        Token t = next(sql);
        if (!t.isSymbol("=") && !t.isSymbol(":=")) {
            throw syntax(sql, t);
        }
    }

    private void expectWord(String word, String sql) {
        Token t = next(sql);
        if (!t.is(word)) {
            throw syntax(sql, t);
        }
    }

    /** Consumes the next token if it is {@code word}. */
    private boolean consumeWord(String word) {
        if (position < tokens.size() && tokens.get(position).is(word)) {
            position++;
            return true;
        }
        return false;
    }

    /** Consumes the next token if it is a comma (another assignment follows). */
    private boolean consumeComma() {
        if (position < tokens.size() && tokens.get(position).isSymbol(",")) {
            position++;
            return true;
        }
        return false;
    }

    private Token next(String sql) {
        if (position >= tokens.size()) {
            throw SqlErrors.syntax(sql, sql.length(), "Unexpected input '<EOF>' in SET");
        }
        return tokens.get(position++);
    }

    private static SqlError syntax(String sql, Token at) {
        return SqlErrors.syntax(sql, at.start(), "Unexpected input '" + at.text() + "' in SET");
    }
}
