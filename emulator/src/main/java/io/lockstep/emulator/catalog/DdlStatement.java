package io.lockstep.emulator.catalog;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One parsed statement of the emulator's StarRocks DDL subset. Every statement knows its 1-based position in the
 * DDL text ({@code number}) and the line it starts on, so that errors found while applying it can name both.
 */
public sealed interface DdlStatement {

    /** 1-based index of the statement in the DDL text (empty statements are not counted). */
    int number();

    /** 1-based line where the statement starts. */
    int line();

    /**
     * {@code CREATE DATABASE [IF NOT EXISTS] name}.
     */
    record CreateDatabase(int number, int line, String name, boolean ifNotExists) implements DdlStatement {
        public CreateDatabase {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code USE name}: sets the database for the following unqualified {@code CREATE TABLE}s. */
    record UseDatabase(int number, int line, String name) implements DdlStatement {
        public UseDatabase {
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * {@code CREATE TABLE [IF NOT EXISTS] [db.]name (...) PRIMARY KEY|DUPLICATE KEY (...) ...}.
     *
     * @param database            the qualifying database, or null when the statement names none (then the
     *                            database of the last {@code USE} applies)
     * @param name                table name
     * @param ifNotExists         whether {@code IF NOT EXISTS} was given
     * @param keysType            the table type
     * @param columns             columns in declaration order
     * @param keyColumns          key columns in key order
     * @param distributionColumns {@code DISTRIBUTED BY HASH(...)} columns (empty for RANDOM or when omitted)
     * @param buckets             {@code BUCKETS n}, or -1 when not given
     * @param properties          {@code PROPERTIES (...)}, kept for information; the emulator applies none
     */
    record CreateTable(int number, int line, String database, String name, boolean ifNotExists,
                       KeysType keysType, List<ColumnSchema> columns, List<String> keyColumns,
                       List<String> distributionColumns, int buckets, Map<String, String> properties)
            implements DdlStatement {
        public CreateTable {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(keysType, "keysType");
            columns = List.copyOf(columns);
            keyColumns = List.copyOf(keyColumns);
            distributionColumns = List.copyOf(distributionColumns);
            properties = Map.copyOf(properties);
        }
    }

    /** {@code DROP TABLE [IF EXISTS] [db.]name}; database null when unqualified. */
    record DropTable(int number, int line, String database, String name, boolean ifExists) implements DdlStatement {
        public DropTable {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code DROP DATABASE [IF EXISTS] name}: drops the database and all its tables. */
    record DropDatabase(int number, int line, String name, boolean ifExists) implements DdlStatement {
        public DropDatabase {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code TRUNCATE TABLE [db.]name}: removes every committed row, keeps the table. */
    record TruncateTable(int number, int line, String database, String name) implements DdlStatement {
        public TruncateTable {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code ALTER TABLE [db.]name ADD COLUMN ...}: the column is appended after the existing ones. */
    record AddColumn(int number, int line, String database, String name, ColumnSchema column) implements DdlStatement {
        public AddColumn {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(column, "column");
        }
    }

    /** {@code ALTER TABLE [db.]name DROP COLUMN column}. */
    record DropColumn(int number, int line, String database, String name, String column) implements DdlStatement {
        public DropColumn {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(column, "column");
        }
    }
}
