package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.flink.row.LoadRow;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The assemblers' keying: partitions spread over the subtasks, one key per partition, independent of parallelism. */
class SourcePartitionKeyTest {

    @ParameterizedTest(name = "max parallelism {0}")
    @CsvSource({"128", "4096", "2"})
    void atParallelismTwoEveryPartitionLandsOnSubtaskPartitionModTwo(int maxParallelism) throws Exception {
        SourcePartitionKey selector = new SourcePartitionKey(2, maxParallelism);
        Set<Long> keys = new HashSet<>();
        for (int partition = 0; partition < 16; partition++) {
            long key = selector.getKey(event(partition));
            assertThat(KeyGroupRangeAssignment.assignKeyToParallelOperator(key, maxParallelism, 2))
                    .as("subtask of partition %d", partition).isEqualTo(partition % 2);
            assertThat(SourcePartitionKey.partitionOf(key)).isEqualTo(partition);
            keys.add(key);
        }
        assertThat(keys).as("one key per partition").hasSize(16);
    }

    @ParameterizedTest(name = "parallelism {0}, max parallelism {1}")
    @CsvSource({"4, 128", "8, 128", "4, 4096", "16, 4096"})
    void atPowerOfTwoParallelismTheFirstPartitionsTakeDistinctSubtasks(int parallelism, int maxParallelism)
            throws Exception {
        SourcePartitionKey selector = new SourcePartitionKey(parallelism, maxParallelism);
        Set<Integer> subtasks = new HashSet<>();
        for (int partition = 0; partition < parallelism; partition++) {
            subtasks.add(KeyGroupRangeAssignment.assignKeyToParallelOperator(selector.getKey(event(partition)),
                    maxParallelism, parallelism));
        }
        assertThat(subtasks).as("partitions 0..%d on distinct subtasks", parallelism - 1).hasSize(parallelism);
    }

    @Test
    void atParallelismThreeEverySubtaskGetsWork() throws Exception {
        SourcePartitionKey selector = new SourcePartitionKey(3, 128);
        Set<Integer> subtasks = new HashSet<>();
        for (int partition = 0; partition < 6; partition++) {
            subtasks.add(KeyGroupRangeAssignment.assignKeyToParallelOperator(selector.getKey(event(partition)), 128, 3));
        }
        assertThat(subtasks).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void keysDoNotDependOnTheParallelismSoARescaledJobFindsItsOpenTransactions() throws Exception {
        for (int partition = 0; partition < 32; partition++) {
            long atTwo = new SourcePartitionKey(2, 128).getKey(event(partition));
            assertThat(new SourcePartitionKey(5, 128).getKey(event(partition))).isEqualTo(atTwo);
            assertThat(new SourcePartitionKey(64, 128).getKey(event(partition))).isEqualTo(atTwo);
            assertThat(KeyGroupRangeAssignment.assignToKeyGroup(atTwo, 128))
                    .isEqualTo(SourcePartitionKey.targetKeyGroup(partition, 128));
        }
    }

    @Test
    void plainPartitionKeysShareOneSubtaskAtParallelismTwo() {
        // the imbalance this keying removes: Integer keys 0 and 1 hash into key groups of the same subtask
        assertThat(KeyGroupRangeAssignment.assignKeyToParallelOperator(0, 128, 2))
                .isEqualTo(KeyGroupRangeAssignment.assignKeyToParallelOperator(1, 128, 2));
    }

    @Test
    void keysAreTheSameInADeserializedCopy() throws Exception {
        SourcePartitionKey selector = new SourcePartitionKey(4, 128);
        SourcePartitionKey copy = InstantiationUtil.clone(selector);
        for (int partition = 0; partition < 64; partition++) {
            assertThat(copy.getKey(event(partition))).isEqualTo(selector.getKey(event(partition)));
        }
    }

    @Test
    void targetKeyGroupsMirrorThePartitionBits() {
        assertThat(SourcePartitionKey.targetKeyGroup(0, 128)).isZero();
        assertThat(SourcePartitionKey.targetKeyGroup(1, 128)).isEqualTo(64);
        assertThat(SourcePartitionKey.targetKeyGroup(2, 128)).isEqualTo(32);
        assertThat(SourcePartitionKey.targetKeyGroup(3, 128)).isEqualTo(96);
        assertThat(SourcePartitionKey.targetKeyGroup(Integer.MAX_VALUE, 128)).isBetween(0, 127);
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aCheckpointKeyedByThePlainPartitionIsRefusedNotSilentlyOrphaned() throws Exception {
        // the keying before SourcePartitionKey: Integer keys (the partition); an open transaction in its state
        KeyedProcessOperator operator = new KeyedProcessOperator(new DebeziumTransactionAssembler(
                TableRouter.parse(null, "dw", UnknownTableMode.FAIL), AssemblerOptions.defaults()));
        KeyedOneInputStreamOperatorTestHarness<Integer, SourceEvent, LoadRow> old =
                new KeyedOneInputStreamOperatorTestHarness<>(operator,
                        (KeySelector<SourceEvent, Integer>) SourceEvent::getPartition, Types.INT);
        old.open();
        old.processElement(new DebeziumMessages(0).begin("tx-1"), 0L);
        OperatorSubtaskState checkpoint = old.snapshot(1, 1);
        old.close();

        assertThatThrownBy(() -> new AssemblerHarness(new DebeziumTransactionAssembler(
                TableRouter.parse(null, "dw", UnknownTableMode.FAIL), AssemblerOptions.defaults()), checkpoint, 0))
                .hasStackTraceContaining("key serializer");
    }

    @Test
    void invalidParallelismIsRejectedNamingBothNumbers() {
        assertThatThrownBy(() -> new SourcePartitionKey(0, 128))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parallelism 0");
        assertThatThrownBy(() -> new SourcePartitionKey(8, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parallelism 8").hasMessageContaining("max parallelism 4");
    }

    @Test
    void theJobKeyingFollowsTheEnvironment() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        SourcePartitionKey derived = TransactionStreams.keyFor(env);
        assertThat(derived.parallelism()).isEqualTo(2);
        assertThat(derived.maxParallelism()).isEqualTo(KeyGroupRangeAssignment.computeDefaultMaxParallelism(2))
                .isEqualTo(128);
        env.setMaxParallelism(512);
        assertThat(TransactionStreams.keyFor(env).maxParallelism()).isEqualTo(512);
    }

    private static SourceEvent event(int partition) {
        return SourceEvent.at(SourceEventKind.ROW, new SourceRecord("t", partition, 0, null, "{}"));
    }
}
