package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.mysql.SqlLexer.Token;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The names a statement defines, found before it is translated ({@link H2Translator}): the names of
 * {@code WITH name AS (...)}, the column aliases ({@code AS alias}), and the columns of every table the statement may
 * name, which decide whether a name is a column (matched in any case) or an alias (matched as defined).
 *
 * @param cteNames      names of common table expressions, as written
 * @param columnAliases column aliases, lower case → as written
 * @param knownColumns  lower-case column names of the tables the statement names
 */
record StatementNames(Set<String> cteNames, Map<String, String> columnAliases, Set<String> knownColumns) {

    /** The names of a statement's tokens (blanks removed); {@code database} is the session's, or null. */
    static StatementNames of(List<Token> tokens, Catalog catalog, String database) {
        Set<String> ctes = new HashSet<>();
        Map<String, String> aliases = new HashMap<>();
        Set<String> columns = new HashSet<>();
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            boolean followedByParen = i + 2 < tokens.size() && tokens.get(i + 2).isSymbol("(");
            if (t.isName() && i + 2 < tokens.size() && tokens.get(i + 1).is("AS") && followedByParen) {
                ctes.add(t.value());
            }
            if (t.is("AS") && i + 1 < tokens.size() && tokens.get(i + 1).isName() && !followedByParen) {
                aliases.put(tokens.get(i + 1).value().toLowerCase(Locale.ROOT), tokens.get(i + 1).value());
            }
            if (!t.isName()) {
                continue;
            }
            Optional<TableSchema> table = database == null ? Optional.empty() : catalog.table(database, t.value());
            if (i + 2 < tokens.size() && tokens.get(i + 1).isSymbol(".") && tokens.get(i + 2).isName()) {
                Optional<TableSchema> qualified = catalog.table(t.value(), tokens.get(i + 2).value());
                table = qualified.isPresent() ? qualified : table;
            }
            table.ifPresent(s -> s.columns().forEach(c -> columns.add(c.name().toLowerCase(Locale.ROOT))));
        }
        return new StatementNames(ctes, aliases, columns);
    }
}
