package io.lockstep.emulator.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.http.Reply;
import org.junit.jupiter.api.Test;

/** The request log line names the reply's Status, never its message. */
class RequestLogStatusTest {

    @Test
    void logsTheBeStatusOfAFailedLoad() {
        Reply reply = Reply.json("{\"Status\":\"INTERNAL_ERROR\",\"Message\":\"row 3: 1,secret\"}");
        assertThat(RequestDispatcher.replyStatusOf(reply)).isEqualTo(" INTERNAL_ERROR");
    }

    @Test
    void logsTheFeStatusAndSkipsLargeNestedFields() {
        Reply reply = Reply.json("{\"rows\":[[1,\"Status\"]],\"status\":\"FAILED\",\"msg\":\"x\"}");
        assertThat(RequestDispatcher.replyStatusOf(reply)).isEqualTo(" FAILED");
    }

    @Test
    void logsNothingExtraForTextOrStatuslessReplies() {
        assertThat(RequestDispatcher.replyStatusOf(Reply.text("ok"))).isEmpty();
        assertThat(RequestDispatcher.replyStatusOf(Reply.json("{\"columns\":[],\"rows\":[]}"))).isEmpty();
    }
}
