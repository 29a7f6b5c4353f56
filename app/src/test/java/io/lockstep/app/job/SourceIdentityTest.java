package io.lockstep.app.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.flink.row.LoadRow;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rows' sources and covered-position keys get their topic's identity; other sources pass unchanged. */
class SourceIdentityTest {

    private static LoadRow row(String source) {
        LoadRow row = new LoadRow(null, "dw", "orders", "{}");
        row.setSource(source);
        return row;
    }

    @Test
    void theOneTopicLayoutRenamesItsTopicOnly() throws Exception {
        SourceIdentity identity = new SourceIdentity("oltp.all", "oltp.all#id1");
        assertThat(((LoadRow) identity.map(row("oltp.all"))).getSource()).isEqualTo("oltp.all#id1");
        assertThat(((LoadRow) identity.map(row("other"))).getSource()).isEqualTo("other");
    }

    @Test
    void coveredPositionKeysGetTheirTopicsIdentityAndTheRebuiltSourcePassesUnchanged() throws Exception {
        SourceIdentity identity = new SourceIdentity(Map.of("pg.public.orders", "pg.public.orders#idO",
                "pg.public.accounts", "pg.public.accounts#idA", "pg.transaction", "pg.transaction#idT"));
        LoadRow end = row("pg.transaction+rebuilt");
        end.setTransactionEnd(true);
        Map<String, Long> covered = new HashMap<>();
        covered.put("pg.public.orders/0", 17L);
        covered.put("pg.public.orders/2", 5L);
        covered.put("pg.transaction/0", 40L);
        covered.put("not.read/1", 3L);
        end.setCoveredPositions(covered);

        LoadRow mapped = (LoadRow) identity.map(end);
        assertThat(mapped.getSource()).isEqualTo("pg.transaction+rebuilt");
        assertThat(mapped.getCoveredPositions()).isEqualTo(Map.of("pg.public.orders#idO/0", 17L,
                "pg.public.orders#idO/2", 5L, "pg.transaction#idT/0", 40L, "not.read/1", 3L));
        assertThat(((LoadRow) identity.map(row("pg.public.accounts"))).getSource())
                .isEqualTo("pg.public.accounts#idA");
    }
}
