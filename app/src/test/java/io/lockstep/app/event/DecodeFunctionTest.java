package io.lockstep.app.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

class DecodeFunctionTest {

    private static final String GOOD = "{\"database\":\"shop\",\"table\":\"t\",\"type\":\"insert\",\"xid\":1,"
            + "\"commit\":true,\"data\":{\"id\":1}}";
    private static final String BAD = "{\"database\":\"shop\",\"table\":\"t\",\"type\":\"insert\",\"data\":{\"id\":2}}";

    @Test
    void failModeSendsBadInputOnInOrderNamingThePosition() throws Exception {
        OneInputStreamOperatorTestHarness<SourceRecord, SourceEvent> h = ProcessFunctionTestHarnesses.forProcessFunction(
                new DecodeFunction(new MaxwellDecoder(), BadInputMode.FAIL));
        try {
            h.processElement(new SourceRecord("mx", 0, 4, null, GOOD), 0);
            h.processElement(new SourceRecord("mx", 0, 5, null, BAD), 0);

            assertThat(h.extractOutputValues()).extracting(SourceEvent::getKind, SourceEvent::getOffset)
                    .containsExactly(tuple(SourceEventKind.ROW, 4L), tuple(SourceEventKind.UNDECODABLE, 5L));
            assertThat(h.extractOutputValues().get(1).getRow())
                    .startsWith("topic 'mx' partition 0 offset 5: Maxwell row has neither 'xid' nor 'commit'");
        } finally {
            h.close();
        }
    }

    @Test
    void skipModeDropsBadInputAndTombstonesAndKeepsTheRest() throws Exception {
        OneInputStreamOperatorTestHarness<SourceRecord, SourceEvent> h = ProcessFunctionTestHarnesses.forProcessFunction(
                new DecodeFunction(new MaxwellDecoder(), BadInputMode.SKIP));
        try {
            h.processElement(new SourceRecord("mx", 0, 5, null, BAD), 0);
            h.processElement(new SourceRecord("mx", 0, 6, null, null), 0);
            h.processElement(new SourceRecord("mx", 0, 7, null, GOOD), 0);

            assertThat(h.extractOutputValues()).extracting(SourceEvent::getOffset, SourceEvent::getRow)
                    .containsExactly(tuple(7L, "{\"id\":1}"));
        } finally {
            h.close();
        }
    }
}
