package io.lockstep.emulator.catalog;

import java.util.List;

/**
 * A position in the tokens of one DDL text, with the number of the statement being read, so that every error
 * names the statement and the line. Used by {@link DdlParser} and {@link ColumnTypeParser}. Not thread-safe.
 */
final class DdlCursor {
    private final List<DdlToken> tokens;
    private int pos;
    private int statementNumber;

    DdlCursor(List<DdlToken> tokens) {
        this.tokens = tokens;
    }

    /** Starts the next statement at the current token and returns its 1-based number. */
    int startStatement() {
        return ++statementNumber;
    }

    /** Moves past the current token. */
    void advance() {
        pos++;
    }

    /** The current token (END at the end; never past it). */
    DdlToken peek() {
        return tokens.get(pos);
    }

    boolean accept(String keyword) {
        if (peek().isKeyword(keyword)) {
            pos++;
            return true;
        }
        return false;
    }

    boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    void expectKeyword(String keyword) throws DdlException {
        if (!accept(keyword)) {
            throw error("expected " + keyword + ", found " + peek().describe());
        }
    }

    void expectSymbol(String symbol) throws DdlException {
        if (!acceptSymbol(symbol)) {
            throw error("expected '" + symbol + "', found " + peek().describe());
        }
    }

    String identifier(String what) throws DdlException {
        DdlToken token = peek();
        if (token.kind() != DdlToken.Kind.IDENTIFIER) {
            throw error("expected " + what + ", found " + token.describe());
        }
        pos++;
        return token.text();
    }

    String string(String what) throws DdlException {
        DdlToken token = peek();
        if (token.kind() != DdlToken.Kind.STRING) {
            throw error("expected " + what + " as a quoted string, found " + token.describe());
        }
        pos++;
        return token.text();
    }

    int positiveInt(String what) throws DdlException {
        int value = positiveIntOrZero(what);
        if (value == 0) {
            throw error(what + " must be greater than 0");
        }
        return value;
    }

    int positiveIntOrZero(String what) throws DdlException {
        DdlToken token = peek();
        if (token.kind() != DdlToken.Kind.NUMBER || token.text().contains(".")) {
            throw error("expected " + what + " as a whole number, found " + token.describe());
        }
        pos++;
        try {
            return Integer.parseInt(token.text());
        } catch (NumberFormatException e) {
            throw error(what + " " + token.text() + " is too large");
        }
    }

    /** An error at the current token; a tokenizer problem there is reported instead of the parse problem. */
    DdlException error(String problem) {
        DdlToken token = peek();
        if (token.kind() == DdlToken.Kind.ERROR) {
            return new DdlException(prefix(token.line()) + token.text());
        }
        return new DdlException(prefix(token.line()) + problem);
    }

    /** An error located at an earlier token. */
    DdlException errorAt(DdlToken token, String problem) {
        return new DdlException(prefix(token.line()) + problem);
    }

    String prefix(int line) {
        return "DDL statement " + statementNumber + " (line " + line + "): ";
    }
}
