package io.lockstep.emulator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DdlParserTest {

    private static DdlStatement.CreateTable table(String ddl) throws DdlException {
        List<DdlStatement> statements = DdlParser.parseAll(ddl);
        assertThat(statements).hasSize(1);
        return (DdlStatement.CreateTable) statements.get(0);
    }

    @Test
    void parsesDatabaseUseAndTableStatementsWithComments() throws DdlException {
        List<DdlStatement> statements = DdlParser.parseAll("""
                -- a comment line
                CREATE DATABASE IF NOT EXISTS shop; /* block
                comment */ USE shop;
                # hash comment
                CREATE TABLE t (id BIGINT NOT NULL) PRIMARY KEY (id) DISTRIBUTED BY HASH(id);
                """);
        assertThat(statements).hasSize(3);
        assertThat(statements.get(0)).isEqualTo(new DdlStatement.CreateDatabase(1, 2, "shop", true));
        assertThat(statements.get(1)).isEqualTo(new DdlStatement.UseDatabase(2, 3, "shop"));
        DdlStatement.CreateTable create = (DdlStatement.CreateTable) statements.get(2);
        assertThat(create.number()).isEqualTo(3);
        assertThat(create.line()).isEqualTo(5);
        assertThat(create.database()).isNull();
        assertThat(create.name()).isEqualTo("t");
    }

    @Test
    void parsesFullCreateTable() throws DdlException {
        DdlStatement.CreateTable create = table("""
                CREATE TABLE IF NOT EXISTS `db`.`Orders` (
                  `order_id` BIGINT NOT NULL COMMENT 'the id',
                  line INT NOT NULL,
                  status VARCHAR(32) NULL DEFAULT "new",
                  total DECIMAL(12, 2) DEFAULT '0' COMMENT "sum",
                  INDEX idx_status (status) USING BITMAP
                ) ENGINE = OLAP
                PRIMARY KEY (order_id, line)
                COMMENT 'orders'
                PARTITION BY RANGE(order_id) (PARTITION p1 VALUES LESS THAN ("100"), PARTITION p2 VALUES LESS THAN (MAXVALUE))
                DISTRIBUTED BY HASH(order_id) BUCKETS 8
                ORDER BY (status)
                PROPERTIES ("replication_num" = "1", "enable_persistent_index" = "true")
                """);
        assertThat(create.database()).isEqualTo("db");
        assertThat(create.name()).isEqualTo("Orders");
        assertThat(create.ifNotExists()).isTrue();
        assertThat(create.keysType()).isEqualTo(KeysType.PRIMARY_KEYS);
        assertThat(create.keyColumns()).containsExactly("order_id", "line");
        assertThat(create.distributionColumns()).containsExactly("order_id");
        assertThat(create.buckets()).isEqualTo(8);
        assertThat(create.properties()).containsEntry("replication_num", "1").hasSize(2);
        assertThat(create.columns()).containsExactly(
                new ColumnSchema("order_id", ColumnType.of(ColumnType.Kind.BIGINT), false, null),
                new ColumnSchema("line", ColumnType.of(ColumnType.Kind.INT), false, null),
                new ColumnSchema("status", new ColumnType(ColumnType.Kind.VARCHAR, 32, -1, -1), true, "new"),
                new ColumnSchema("total", new ColumnType(ColumnType.Kind.DECIMAL, -1, 12, 2), true, "0"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "BOOLEAN|BOOLEAN|-1|-1|-1",
        "BOOL|BOOLEAN|-1|-1|-1",
        "TINYINT|TINYINT|-1|-1|-1",
        "SMALLINT|SMALLINT|-1|-1|-1",
        "INT|INT|-1|-1|-1",
        "INTEGER|INT|-1|-1|-1",
        "INT(11)|INT|-1|-1|-1",
        "BIGINT|BIGINT|-1|-1|-1",
        "LARGEINT|LARGEINT|-1|-1|-1",
        "FLOAT|FLOAT|-1|-1|-1",
        "DOUBLE|DOUBLE|-1|-1|-1",
        "DECIMAL|DECIMAL|-1|10|0",
        "DECIMAL(20)|DECIMAL|-1|20|0",
        "DECIMAL(27,9)|DECIMAL|-1|27|9",
        "DECIMAL32(9,2)|DECIMAL|-1|9|2",
        "DECIMAL64(18,4)|DECIMAL|-1|18|4",
        "DECIMAL128(38,10)|DECIMAL|-1|38|10",
        "CHAR|CHAR|1|-1|-1",
        "CHAR(10)|CHAR|10|-1|-1",
        "VARCHAR(65533)|VARCHAR|65533|-1|-1",
        "STRING|STRING|65533|-1|-1",
        "DATE|DATE|-1|-1|-1",
        "DATETIME|DATETIME|-1|-1|-1",
        "JSON|JSON|-1|-1|-1",
        "varchar(5)|VARCHAR|5|-1|-1"
    })
    void parsesEveryType(String declared, ColumnType.Kind kind, int length, int precision, int scale)
            throws DdlException {
        DdlStatement.CreateTable create = table("CREATE TABLE d.t (k INT NOT NULL, v " + declared
                + ") DUPLICATE KEY (k) DISTRIBUTED BY HASH(k)");
        assertThat(create.columns().get(1).type()).isEqualTo(new ColumnType(kind, length, precision, scale));
    }

    @Test
    void primaryKeyColumnsDefaultToNotNullAndValueColumnsToNull() throws DdlException {
        DdlStatement.CreateTable create = table("CREATE TABLE d.t (k INT, v INT) PRIMARY KEY (k)");
        assertThat(create.columns().get(0).nullable()).isFalse();
        assertThat(create.columns().get(1).nullable()).isTrue();
        DdlStatement.CreateTable duplicate = table("CREATE TABLE d.t (k INT, v INT) DUPLICATE KEY (k)");
        assertThat(duplicate.columns().get(0).nullable()).isTrue();
    }

    @Test
    void parsesNegativeDefaultsAndRandomDistribution() throws DdlException {
        DdlStatement.CreateTable create = table(
                "CREATE TABLE d.t (k INT, v INT DEFAULT -5) DUPLICATE KEY (k) DISTRIBUTED BY RANDOM BUCKETS 3");
        assertThat(create.columns().get(1).defaultValue()).isEqualTo("-5");
        assertThat(create.distributionColumns()).isEmpty();
        assertThat(create.buckets()).isEqualTo(3);
    }

    private static void assertError(String ddl, String expected) {
        assertThatThrownBy(() -> DdlParser.parseAll(ddl)).isInstanceOf(DdlException.class).hasMessage(expected);
    }

    @Test
    void unknownTypeNamesStatementLineAndType() {
        assertError("CREATE DATABASE d;\nCREATE TABLE d.t (\n  k INT NOT NULL,\n  v INTEGR\n) PRIMARY KEY (k);",
                "DDL statement 2 (line 4): unknown or unsupported column type 'INTEGR' for column 'v'; supported:"
                        + " BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, LARGEINT, FLOAT, DOUBLE, DECIMAL(p,s), CHAR(n),"
                        + " VARCHAR(n), STRING, DATE, DATETIME, JSON");
    }

    @Test
    void keyColumnsMustComeFirstInKeyOrder() {
        assertError("CREATE TABLE d.t (v INT, k INT NOT NULL) PRIMARY KEY (k)",
                "DDL statement 1 (line 1): key columns must be the first columns of the table, in key order: key"
                        + " column 1 is 'k' but column 1 is 'v'");
        assertError("CREATE TABLE d.t (a INT, b INT) DUPLICATE KEY (b, a)",
                "DDL statement 1 (line 1): key columns must be the first columns of the table, in key order: key"
                        + " column 1 is 'b' but column 1 is 'a'");
    }

    @Test
    void primaryKeyColumnMayNotBeNullable() {
        assertError("CREATE TABLE d.t (\nk INT NULL,\nv INT) PRIMARY KEY (k)",
                "DDL statement 1 (line 2): primary key column 'k' cannot be nullable; declare it NOT NULL");
    }

    @Test
    void rejectsUnknownKeyAndDistributionColumnsAndBadKeyTypes() {
        assertError("CREATE TABLE d.t (k INT) PRIMARY KEY (x)",
                "DDL statement 1 (line 1): key column 'x' is not a column of the table");
        assertError("CREATE TABLE d.t (k INT) PRIMARY KEY (k) DISTRIBUTED BY HASH(z)",
                "DDL statement 1 (line 1): distribution column 'z' is not a column of the table");
        assertError("CREATE TABLE d.t (k DOUBLE) DUPLICATE KEY (k)",
                "DDL statement 1 (line 1): key column 'k' cannot be of type DOUBLE");
        assertError("CREATE TABLE d.t (k DECIMAL(10,2)) PRIMARY KEY (k)",
                "DDL statement 1 (line 1): primary key column 'k' cannot be of type DECIMAL; use BOOLEAN, an"
                        + " integer, DATE, DATETIME or a string type");
        assertError("CREATE TABLE d.t (k INT, K INT) DUPLICATE KEY (k)",
                "DDL statement 1 (line 1): duplicate column name 'K'");
    }

    @Test
    void rejectsMissingOrUnsupportedKeyDefinition() {
        assertError("CREATE TABLE d.t (k INT) DISTRIBUTED BY HASH(k)",
                "DDL statement 1 (line 1): expected PRIMARY KEY (...), UNIQUE KEY (...) or DUPLICATE KEY (...) after"
                        + " the column list, found 'DISTRIBUTED'");
        assertError("CREATE TABLE d.t (k INT, v INT SUM) AGGREGATE KEY (k)",
                "DDL statement 1 (line 1): aggregate column 'v' (SUM) is not supported by the emulator");
        assertError("CREATE TABLE d.t (k INT) AGGREGATE KEY (k)",
                "DDL statement 1 (line 1): AGGREGATE KEY tables are not supported by the emulator; use PRIMARY KEY,"
                        + " UNIQUE KEY or DUPLICATE KEY");
        assertError("CREATE TABLE d.t (k INT NULL) UNIQUE KEY (k)",
                "DDL statement 1 (line 1): unique key column 'k' cannot be nullable in the emulator; declare it NOT"
                        + " NULL");
    }

    @Test
    void parsesDorisUniqueKeyTable() throws DdlException {
        List<DdlStatement> statements = DdlParser.parseAll("""
                CREATE TABLE IF NOT EXISTS d.t (
                  `id` BIGINT NOT NULL COMMENT 'key',
                  `v` STRING
                ) ENGINE=OLAP
                UNIQUE KEY(`id`)
                COMMENT 'tbl'
                DISTRIBUTED BY HASH(`id`) BUCKETS 4
                PROPERTIES ("replication_num" = "1", "enable_unique_key_merge_on_write" = "true")
                """);
        DdlStatement.CreateTable table = (DdlStatement.CreateTable) statements.get(0);
        assertThat(table.keysType()).isEqualTo(KeysType.UNIQUE_KEYS);
        assertThat(table.keyColumns()).containsExactly("id");
        assertThat(table.columns().get(0).nullable()).isFalse();
        assertThat(table.buckets()).isEqualTo(4);
        assertThat(table.properties()).containsEntry("enable_unique_key_merge_on_write", "true");
    }

    @Test
    void rejectsTypeLimits() {
        assertError("CREATE TABLE d.t (k INT, v DECIMAL(39, 2)) DUPLICATE KEY (k)",
                "DDL statement 1 (line 1): precision 39 of DECIMAL column 'v' is out of range [1, 38]");
        assertError("CREATE TABLE d.t (k INT, v DECIMAL32(10, 2)) DUPLICATE KEY (k)",
                "DDL statement 1 (line 1): precision 10 of DECIMAL32 column 'v' is out of range [1, 9]");
        assertError("CREATE TABLE d.t (k INT, v DECIMAL(5, 6)) DUPLICATE KEY (k)",
                "DDL statement 1 (line 1): scale 6 of DECIMAL column 'v' is out of range [0, 5]");
        assertError("CREATE TABLE d.t (k INT, v CHAR(256)) DUPLICATE KEY (k)",
                "DDL statement 1 (line 1): length 256 of CHAR column 'v' is out of range [1, 255]");
        assertError("CREATE TABLE d.t (k INT, v VARCHAR(1048577)) DUPLICATE KEY (k)",
                "DDL statement 1 (line 1): length 1048577 of VARCHAR column 'v' is out of range [1, 1048576]");
    }

    @Test
    void reportsSyntaxErrorsWithTheirLine() {
        assertError("CREATE DATABASE a;\n\nCREATE DATABASE b\nCREATE DATABASE c;",
                "DDL statement 2 (line 4): expected ';' or end of input, found 'CREATE'");
        assertError("GRANT ALL ON x TO y", "DDL statement 1 (line 1): unsupported statement starting with 'GRANT';"
                + " supported: CREATE DATABASE, CREATE TABLE, USE, ALTER TABLE, TRUNCATE TABLE, DROP TABLE,"
                + " DROP DATABASE");
        assertError("DROP VIEW x", "DDL statement 1 (line 1): only DROP TABLE and DROP DATABASE are supported,"
                + " found 'VIEW'");
        assertError("CREATE DATABASE a;\nCREATE TABLE a.t (k INT COMMENT 'oops) PRIMARY KEY (k);",
                "DDL statement 2 (line 2): string starting with ' is never closed");
        assertError("CREATE DATABASE a;\n/* never closed", "DDL statement 2 (line 2): comment /* is never closed");
        assertError("CREATE TABLE d.t (k INT DEFAULT CURRENT_TIMESTAMP) DUPLICATE KEY (k)",
                "DDL statement 1 (line 1): DEFAULT of column 'k' must be a quoted literal, a number or NULL, found"
                        + " 'CURRENT_TIMESTAMP' (DEFAULT CURRENT_TIMESTAMP and expressions are not supported by the"
                        + " emulator)");
    }

    @Test
    void statementsBeforeAnUnreadableOneStillParse() throws DdlException {
        DdlParser parser = new DdlParser("CREATE DATABASE a;\nCREATE DATABASE b;\nCREATE TABLE 'x");
        assertThat(parser.next()).isInstanceOf(DdlStatement.CreateDatabase.class);
        assertThat(parser.next()).isInstanceOf(DdlStatement.CreateDatabase.class);
        assertThatThrownBy(parser::next).hasMessage("DDL statement 3 (line 3): string starting with ' is never closed");
    }
}
