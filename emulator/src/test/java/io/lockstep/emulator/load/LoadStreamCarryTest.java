package io.lockstep.emulator.load;

import static io.lockstep.emulator.load.LoadFixture.headers;
import static io.lockstep.emulator.load.LoadFixture.table;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The loads of one transaction are one CSV stream: an unterminated record continues in the next load. */
class LoadStreamCarryTest {
    private final StreamLoadBodyParser parser = new StreamLoadBodyParser();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void unterminatedRecordIsGluedToTheNextLoad() throws LoadFormatException {
        LoadFormat format = LoadFormat.fromHeaders(headers("column_separator", ","));
        LoadStreamCarry carry = new LoadStreamCarry();
        ParsedBatch first = parser.parse(table("orders"), format, bytes("1,a,1,\\N\n2,b"), carry);
        assertThat(first.totalRows()).isEqualTo(1);
        assertThat(carry.pendingBytes()).isEqualTo(3);
        ParsedBatch second = parser.parse(table("orders"), format, bytes("3,c,1,\\N\n"), carry);
        assertThat(second.totalRows()).isEqualTo(1);
        assertThat(second.filteredRows()).isEqualTo(1);
        assertThat(second.errorRows()).containsExactly("Error: Value count does not match column count. Expect 4,"
                + " but got 5. Column delimiter: 44,Row delimiter: 10. Row: 2,b3,c,1,\\N");
        assertThat(carry.pendingBytes()).isZero();
        assertThat(parser.finish(table("orders"), format, carry).totalRows()).isZero();
    }

    @Test
    void aDelimiterSplitAcrossLoadsStillEndsTheRecord() throws LoadFormatException {
        LoadFormat format = LoadFormat.fromHeaders(headers("column_separator", ",", "row_delimiter", "\\x0D0A"));
        LoadStreamCarry carry = new LoadStreamCarry();
        assertThat(parser.parse(table("orders"), format, bytes("1,a,1,\\N\r"), carry).totalRows()).isZero();
        ParsedBatch second = parser.parse(table("orders"), format, bytes("\n2,b,2,\\N\r\n"), carry);
        assertThat(second.rows()).extracting(r -> r.values()[0]).containsExactly(1L, 2L);
    }

    @Test
    void finishReadsTheLastUnterminatedRecord() throws LoadFormatException {
        LoadFormat format = LoadFormat.fromHeaders(headers("column_separator", ","));
        LoadStreamCarry carry = new LoadStreamCarry();
        parser.parse(table("orders"), format, bytes("1,a,1,\\N"), carry);
        ParsedBatch last = parser.finish(table("orders"), format, carry);
        assertThat(last.rows()).extracting(r -> r.values()[0]).containsExactly(1L);
        assertThat(carry.pendingBytes()).isZero();
    }

    @Test
    void jsonLoadsAreWholeAndLeaveNoCarry() throws LoadFormatException {
        LoadFormat format = LoadFormat.fromHeaders(headers("format", "json"));
        LoadStreamCarry carry = new LoadStreamCarry();
        ParsedBatch batch = parser.parse(table("orders"), format, bytes("{\"order_id\": 1}"), carry);
        assertThat(batch.rows()).hasSize(1);
        assertThat(carry.pendingBytes()).isZero();
    }
}
