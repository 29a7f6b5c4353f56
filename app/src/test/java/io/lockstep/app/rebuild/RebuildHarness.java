package io.lockstep.app.rebuild;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.UnknownTableMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/** A Flink operator harness around one {@link CrossTopicRebuild}; processing time starts at 0. */
final class RebuildHarness implements AutoCloseable {

    static final long MAX_OPEN_MS = 60_000;

    private final KeyedOneInputStreamOperatorTestHarness<Long, SourceEvent, SourceEvent> harness;
    private int taken;

    RebuildHarness(TopicLayout layout, UnknownTableMode mode, Map<String, String> committed,
            OperatorSubtaskState restored) throws Exception {
        harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
                new CrossTopicRebuild(layout, MAX_OPEN_MS, mode, committed)), new RebuildKey(128), Types.LONG);
        harness.setup(TypeInformation.of(SourceEvent.class).createSerializer(
                new org.apache.flink.api.common.serialization.SerializerConfigImpl()));
        harness.setProcessingTime(0);
        if (restored != null) {
            harness.initializeState(restored);
        }
        harness.open();
    }

    /** A harness for tables {@code orders} and {@code items}, failing on unread tables, nothing committed. */
    static RebuildHarness ordersAndItems() throws Exception {
        return new RebuildHarness(layout(Long.MAX_VALUE), UnknownTableMode.FAIL, null, null);
    }

    static TopicLayout layout(long maxPendingBytes) {
        return new TopicLayout(RebuildEvents.TX_TOPIC, List.of(RebuildEvents.topic("orders"),
                RebuildEvents.topic("items")), null, maxPendingBytes, -1);
    }

    void send(SourceEvent... events) throws Exception {
        for (SourceEvent event : events) {
            harness.processElement(event, 0L);
        }
    }

    void advanceTo(long processingTimeMs) throws Exception {
        harness.setProcessingTime(processingTimeMs);
    }

    /** Ends the input as a bounded source does: the final watermark. */
    void endInput() throws Exception {
        harness.processWatermark(Long.MAX_VALUE);
    }

    OperatorSubtaskState checkpoint(long id) throws Exception {
        return harness.snapshot(id, id);
    }

    /** @return the events emitted since the last call */
    List<SourceEvent> take() {
        List<SourceEvent> all = harness.extractOutputValues();
        List<SourceEvent> fresh = new ArrayList<>(all.subList(taken, all.size()));
        taken = all.size();
        return fresh;
    }

    /** @return {@link RebuildEvents#brief} of the events emitted since the last call */
    List<String> takeBrief() {
        return take().stream().map(RebuildEvents::brief).toList();
    }

    @Override
    public void close() throws Exception {
        harness.close();
    }
}
