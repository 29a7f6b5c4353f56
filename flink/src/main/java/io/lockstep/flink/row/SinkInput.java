package io.lockstep.flink.row;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * One element of the stream between a job's transaction assembler and its sink: a {@link LoadRow} to load, or a
 * {@link ControlMark} the sink acts on in order with the rows of the same source partition (stop the job, apply a
 * schema change). Sealed, so the sink handles every kind; both kinds carry the source partition the stream is
 * partitioned by.
 *
 * <p>Its Flink type ({@link SinkInputTypeInfo}) serves the network channel from the assembler to the sink only:
 * operator state holds {@link LoadRow}s, never this type.
 */
@TypeInfo(SinkInputTypeInfoFactory.class)
public sealed interface SinkInput permits LoadRow, ControlMark {

    /** @return the source partition the element came from (&gt;= 0), or -1 when not tracked */
    int getSourcePartition();
}
