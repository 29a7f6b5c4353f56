package io.lockstep.app.job;

import io.lockstep.flink.row.SinkInput;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * Sends each source partition to sink subtask {@code partition mod parallelism}: all rows of a partition reach
 * one subtask (the multi-table sink's contract, docs/sinks.md) and consecutive partitions spread over the
 * subtasks. A plain {@code keyBy(getSourcePartition)} keeps the first property but hashes into key groups, which
 * can put Kafka partitions 0 and 1 on the same subtask at parallelism 2 and leave the other idle.
 */
public final class SourcePartitionRouting implements Partitioner<Integer>,
        KeySelector<SinkInput, Integer> {

    private static final long serialVersionUID = 1L;

    /** @return the row's or control mark's source partition (&gt;= 0 for those from the assemblers) */
    @Override
    public Integer getKey(SinkInput input) {
        return input.getSourcePartition();
    }

    /**
     * @param partition a source partition; a negative one goes to subtask 0, where the sink refuses it with a
     *     message naming the row's table
     * @param subtasks the sink's parallelism
     * @return the subtask index
     */
    @Override
    public int partition(Integer partition, int subtasks) {
        return partition < 0 ? 0 : partition % subtasks;
    }
}
