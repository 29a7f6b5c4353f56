package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableException;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.schema.ColumnReadException;
import io.lockstep.app.schema.ColumnReader;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.app.schema.TargetColumnsRefusedException;
import io.lockstep.app.schema.TargetColumnsUnavailableException;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.flink.row.LoadRow;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The column check never switches itself off (docs/reliability.md): when the target's columns cannot be read, an
 * outage fails the subtask for a restart (and the next attempt checks), a missing table follows
 * {@code --unknown-table}, refused credentials fail the job once; no row is emitted unchecked meanwhile.
 */
class ColumnCheckStaysOnTest {

    private static final String ORDER_WITH_NOTE = "{\"order_id\":2,\"note\":\"n\"}";
    private static final List<TargetColumn> ORDERS = List.of(TargetColumn.named("order_id"));

    /** Answers of the reader, in order: a list of columns, or a failure to throw. */
    private static final Deque<Object> ANSWERS = new ArrayDeque<>();
    private static final ColumnReader SCRIPTED = (database, table) -> {
        Object answer = ANSWERS.removeFirst();
        if (answer instanceof ColumnReadException e) {
            throw e;
        }
        @SuppressWarnings("unchecked")
        List<TargetColumn> columns = (List<TargetColumn>) answer;
        return columns;
    };

    private final DebeziumMessages p0 = new DebeziumMessages(0);
    private AssemblerHarness harness;

    private AssemblerHarness start(UnknownTableMode unknownTables) throws Exception {
        if (harness != null) {
            harness.close();
        }
        harness = new AssemblerHarness(new DebeziumTransactionAssembler(TableRouter.parse(null, "dw", unknownTables),
                AssemblerOptions.defaults().withSchemaChangeMode(SchemaChangeMode.FAIL)).checkingColumns(SCRIPTED));
        return harness;
    }

    @AfterEach
    void close() throws Exception {
        ANSWERS.clear();
        if (harness != null) {
            harness.close();
        }
    }

    private void order(AssemblerHarness h, String tx) throws Exception {
        h.send(p0.begin(tx), p0.insert("orders", ORDER_WITH_NOTE, tx), p0.end(tx, 1, Map.of("shop.orders", 1L)));
    }

    private static ColumnReadException failure(ColumnReadException.Kind kind) {
        return new ColumnReadException(kind, "Cannot read the columns of target table dw.orders: " + kind, null);
    }

    @Test
    void anOutageFailsTheSubtaskForARestartAndTheNextAttemptStillChecks() throws Exception {
        ANSWERS.add(failure(ColumnReadException.Kind.OUTAGE));
        ANSWERS.add(ORDERS);
        AssemblerHarness first = start(UnknownTableMode.FAIL);

        assertThatThrownBy(() -> order(first, "tx-1")).isInstanceOf(TargetColumnsUnavailableException.class)
                .hasMessageContaining("target table dw.orders");
        assertThat(first.takeEmitted()).as("nothing loaded unchecked").isEmpty();
        assertThat(TargetColumnsUnavailableException.class.getAnnotation(ThrowableAnnotation.class))
                .as("restarted within the restart strategy").isNull();

        AssemblerHarness restarted = start(UnknownTableMode.FAIL);
        assertThatThrownBy(() -> order(restarted, "tx-1")).isInstanceOf(SchemaChangeException.class)
                .hasMessageContaining("column 'note' that target table dw.orders lacks");
    }

    @Test
    void refusedCredentialsFailTheJobOnce() throws Exception {
        ANSWERS.add(failure(ColumnReadException.Kind.ACCESS_DENIED));
        AssemblerHarness h = start(UnknownTableMode.FAIL);

        assertThatThrownBy(() -> order(h, "tx-1")).isInstanceOf(TargetColumnsRefusedException.class);
        assertThat(TargetColumnsRefusedException.class.getAnnotation(ThrowableAnnotation.class).value())
                .isEqualTo(ThrowableType.NonRecoverableError);
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void aMissingTableFollowsUnknownTable() throws Exception {
        ANSWERS.add(failure(ColumnReadException.Kind.MISSING_TABLE));
        AssemblerHarness failing = start(UnknownTableMode.FAIL);
        assertThatThrownBy(() -> order(failing, "tx-1")).isInstanceOf(UnknownTableException.class)
                .hasMessageContaining("target table 'dw.orders' of source table 'shop.orders' does not exist");
        assertThat(failing.takeEmitted()).isEmpty();

        ANSWERS.add(failure(ColumnReadException.Kind.MISSING_TABLE));
        AssemblerHarness skipping = start(UnknownTableMode.SKIP);
        order(skipping, "tx-1");
        order(skipping, "tx-2");
        List<LoadRow> emitted = skipping.takeEmitted();
        assertThat(emitted).as("the rows are skipped").isEmpty();
        assertThat(ANSWERS).as("asked once, not per row").isEmpty();
    }
}
