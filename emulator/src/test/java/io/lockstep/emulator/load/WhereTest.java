package io.lockstep.emulator.load;

import static io.lockstep.emulator.load.LoadFixture.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WhereTest {
    /** Orders 1..5: status a, b, \N, a, c; totals 1.00 .. 5.00; order 5 has no total. */
    private static final String BODY = "1\ta\t1\t\\N\n2\tb\t2\t\\N\n3\t\\N\t3\t\\N\n4\ta\t4\t\\N\n5\tc\t\\N\t\\N\n";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "status = 'a'|1,4",
        "status != 'a'|2,5",
        "status <> 'a'|2,5",
        "total > 2|3,4",
        "total >= 2 AND total < 4|2,3",
        "total <= 1 OR status = 'c'|1,5",
        "NOT (status = 'a')|2,5",
        "status IS NULL|3",
        "status IS NOT NULL AND total IS NULL|5",
        "status IN ('b', 'c')|2,5",
        "status NOT IN ('b', 'c')|1,4",
        "total BETWEEN 2 AND 3|2,3",
        "total NOT BETWEEN 2 AND 3|1,4",
        "order_id = total|1,2,3,4",
        "`Order_Id` > -1 and order_id < 3|1,2"
    })
    void selectsRowsWithSqlThreeValuedLogic(String where, String expectedIds) throws LoadFormatException {
        ParsedBatch batch = parse("orders", BODY, "where", where);
        String[] ids = expectedIds.split(",");
        assertThat(batch.rows()).extracting(r -> String.valueOf(r.values()[0])).containsExactly(ids);
        assertThat(batch.totalRows()).isEqualTo(5);
        assertThat(batch.unselectedRows()).isEqualTo(5 - ids.length);
        assertThat(batch.filteredRows()).isZero();
    }

    @Test
    void unselectedRowsAreNotCheckedForNotNull() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "\\N\tskip\t1\t\\N\n\\N\tkeep\t1\t\\N\n", "where", "status = 'keep'");
        assertThat(batch.unselectedRows()).isEqualTo(1);
        assertThat(batch.filteredRows()).isEqualTo(1);
    }

    @Test
    void badWhereFailsThePlan() {
        assertThatThrownBy(() -> parse("orders", BODY, "where", "nope = 1"))
                .isInstanceOfSatisfying(LoadFormatException.class,
                        e -> assertThat(e.statusCode()).isEqualTo("ANALYSIS_ERROR"))
                .hasMessage("Unknown column 'nope' in where: nope = 1");
        assertThatThrownBy(() -> parse("orders", BODY, "where", "total = 'abc'"))
                .hasMessage("where: Value 'abc' cannot be converted to DECIMAL(6,2) for column 'total'");
        assertThatThrownBy(() -> parse("orders", BODY, "where", "status ="))
                .hasMessage("invalid where 'status =': expected a constant or column at the end");
        assertThatThrownBy(() -> parse("orders", BODY, "where", "upper(status) = 'A'"))
                .isInstanceOfSatisfying(LoadFormatException.class,
                        e -> assertThat(e.statusCode()).isEqualTo("NOT_IMPLEMENTED_ERROR"))
                .hasMessage("where 'upper(status) = 'A'' is not supported by the emulator: function calls are not"
                        + " evaluated");
        assertThatThrownBy(() -> parse("orders", BODY, "where", "total * 2 > 3"))
                .hasMessage("where 'total * 2 > 3' is not supported by the emulator: arithmetic is not evaluated");
    }
}
