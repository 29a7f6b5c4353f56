package io.lockstep.emulator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The MySQL → H2 rewrite of information-schema queries ({@link InformationSchemaSql}). */
class InformationSchemaSqlTest {
    @Test
    void renamesTheSchemaInAnyCaseAndQuotingButNotInStrings() {
        assertThat(InformationSchemaSql.rewrite("select `COLUMN_NAME` from `information_schema`.`COLUMNS`"
                + " where `TABLE_SCHEMA`='information_schema'"))
                .isEqualTo("select \"COLUMN_NAME\" from sr_information_schema.\"COLUMNS\""
                        + " where \"TABLE_SCHEMA\"='information_schema'");
        assertThat(InformationSchemaSql.rewrite("SELECT 1 FROM INFORMATION_SCHEMA.tables"))
                .isEqualTo("SELECT 1 FROM sr_information_schema.tables");
        assertThat(InformationSchemaSql.references("SELECT 'information_schema.tables'")).isFalse();
        assertThat(InformationSchemaSql.references("SELECT 1 FROM t -- information_schema\n")).isFalse();
        assertThat(InformationSchemaSql.references("SELECT 1 /* information_schema */ FROM t")).isFalse();
        assertThat(InformationSchemaSql.references("SELECT * FROM `Information_Schema`.`TABLES`")).isTrue();
    }

    @Test
    void turnsMysqlIfIntoCasewhenAndDropsCollate() {
        assertThat(InformationSchemaSql.rewrite("SELECT IF (EXTRA COLLATE utf8mb4_bin LIKE '%IF(%','YES','NO')"))
                .isEqualTo("SELECT CASEWHEN (EXTRA   LIKE '%IF(%','YES','NO')");
    }

    @Test
    void aHavingWithoutGroupByFiltersTheSelectListsAliases() {
        assertThat(InformationSchemaSql.rewrite("SELECT CASE WHEN t = 'B' THEN 'TABLE' END AS TYPE FROM x"
                + " WHERE a = 1 HAVING TYPE IN ('TABLE') ORDER BY TYPE, a"))
                .isEqualTo("SELECT * FROM (SELECT CASE WHEN t = 'B' THEN 'TABLE' END AS TYPE FROM x WHERE a = 1 "
                        + " ORDER BY TYPE, a FETCH FIRST 2147483647 ROWS ONLY) AS lockstep_q WHERE  TYPE IN ('TABLE') ");
        assertThat(InformationSchemaSql.rewrite("SELECT a, COUNT(*) FROM x GROUP BY a HAVING COUNT(*) > 1"))
                .isEqualTo("SELECT a, COUNT(*) FROM x GROUP BY a HAVING COUNT(*) > 1");
    }
}
