package io.lockstep.app.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.event.DebeziumDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.SourceRecord;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL data events carry the previous transaction's commit LSN ({@code source.sequence[0]}), the relation rule 7
 * of the rebuild relies on, checked on the real Debezium 3.6.1 topic across a publisher crash
 * ({@code debezium/pg-crash-resend.jsonl}).
 */
class PreviousCommitLsnTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyDataEventNamesTheCommitLsnOfTheTransactionCommittedJustBeforeItsOwn() throws Exception {
        DebeziumDecoder decoder = new DebeziumDecoder();
        List<SourceEvent> events = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream("/debezium/pg-crash-resend.jsonl")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                JsonNode r = JSON.readTree(line);
                SourceEvent e = decoder.decode(new SourceRecord("crash.all", 0, r.get("offset").asLong(),
                        r.get("key").isNull() ? null : r.get("key").asText(),
                        r.get("value").isNull() ? null : r.get("value").asText()));
                if (e != null) {
                    events.add(e);
                }
            }
        }
        Map<String, Long> commitLsnByKey = new HashMap<>();
        TreeSet<Long> commitLsns = new TreeSet<>();
        events.stream().filter(e -> e.getKind() == SourceEventKind.END).forEach(e -> {
            commitLsnByKey.put(e.getTransactionKey(), e.getCommitLsn());
            commitLsns.add(e.getCommitLsn());
        });
        int checked = 0;
        List<String> notAnEnd = new ArrayList<>();
        for (SourceEvent e : events) {
            if (e.getKind() != SourceEventKind.ROW || e.getPreviousCommitLsn() < 0) {
                continue;
            }
            long own = commitLsnByKey.get(e.getTransactionKey());
            // below the event's own commit, and no commit lies between: it is the commit just before (the previous
            // END's LSN; after the connector's restart from an offset without lsn_commit, that offset's lsn_proc)
            assertThat(e.getPreviousCommitLsn()).isLessThan(own);
            assertThat(commitLsns.subSet(e.getPreviousCommitLsn(), false, own, false))
                    .as("END LSNs between previousCommitLsn and the own commit of %s", e).isEmpty();
            if (!commitLsns.contains(e.getPreviousCommitLsn())) {
                notAnEnd.add(e.getTransactionKey() + "@" + e.getOffset());
            }
            checked++;
        }
        assertThat(checked).as("data events of the 13 transactions after the first (216 with re-sends)")
                .isEqualTo(216);
        assertThat(notAnEnd).as("only the copies of 738 re-sent after the restart name no END's LSN exactly")
                .hasSize(37).allSatisfy(key -> assertThat(key).startsWith("738@"));
        assertThat(events.stream().filter(e -> e.getKind() == SourceEventKind.ROW && e.getPreviousCommitLsn() < 0))
                .as("the first transaction after the connector's first start: sequence[0] is null").hasSize(37)
                .allSatisfy(e -> assertThat(e.getTransactionKey()).isEqualTo("738"));
    }

    @Test
    void aSequenceOfAnotherShapeIsRefusedNamingTheField() {
        String value = "{\"op\":\"c\",\"after\":{\"id\":1},\"source\":{\"connector\":\"postgresql\",\"name\":\"pg\","
                + "\"schema\":\"public\",\"table\":\"t\",\"sequence\":\"[\\\"0/16B3748\\\",\\\"1\\\"]\"},"
                + "\"transaction\":{\"id\":\"740:24242700\",\"total_order\":1}}";

        assertThatThrownBy(() -> new DebeziumDecoder().decode(new SourceRecord("pg.public.t", 0, 9, null, value)))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessageContaining("'source.sequence'").hasMessageContaining("offset 9");
    }
}
