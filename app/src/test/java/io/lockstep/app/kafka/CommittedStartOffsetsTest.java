package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.rebuild.TopicLayout;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer.PartitionOffsetsRetriever;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class CommittedStartOffsetsTest {
    private static final String ID = "q1kFl4TKTpWcJ3Pg7bN2ow";
    /** Three partitions: earliest 0, 0, 5; end 100, 50, 60. */
    private static final CommittedStartOffsets.TopicOffsets TOPIC = new CommittedStartOffsets.TopicOffsets(ID,
            Map.of(0, 0L, 1, 0L, 2, 5L), Map.of(0, 100L, 1, 50L, 2, 60L));

    @Test
    void eachPartitionWithACommittedPositionStartsRightAfterItTheOthersAtTheEarliestOffset() {
        CommittedStartOffsets.Plan plan = CommittedStartOffsets.plan("shop", TOPIC, "g-shop",
                Map.of("shop#" + ID, Map.of(0, 41L, 2, 59L), "other#x", Map.of(1, 999L)));

        assertThat(plan.source()).isEqualTo("shop#" + ID);
        assertThat(plan.offsets().offsets()).containsExactly(Map.entry(0, 42L), Map.entry(2, 60L));
    }

    @Test
    void positionsCommittedWithoutATopicIdCountForTheTopic() {
        CommittedStartOffsets.Plan plan = CommittedStartOffsets.plan("shop", TOPIC, "g-shop",
                Map.of("shop", Map.of(1, 9L)));

        assertThat(plan.offsets().offsets()).containsExactly(Map.entry(1, 10L));
    }

    @Test
    void noCommittedPositionMeansTheConfiguredStart() {
        CommittedStartOffsets.Plan plan = CommittedStartOffsets.plan("shop", TOPIC, "g-shop", Map.of());

        assertThat(plan.offsets().isEmpty()).isTrue();
        assertThat(plan.source()).isEqualTo("shop#" + ID);
    }

    @Test
    void aRecreatedTopicIsRefusedNamingBothIds() {
        assertThatThrownBy(() -> CommittedStartOffsets.plan("shop", TOPIC, "g-shop",
                Map.of("shop#OLDID", Map.of(0, 41L))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("topic 'shop' changed identity: job 'g-shop' committed positions for topic "
                        + "id OLDID (partitions 0@41) but the topic now has id " + ID)
                .hasMessageNotContaining("\n");
    }

    @Test
    void aPositionBeyondTheEndOfThePartitionIsRefused() {
        assertThatThrownBy(() -> CommittedStartOffsets.plan("shop", TOPIC, "g-shop",
                Map.of("shop#" + ID, Map.of(1, 50L))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("topic 'shop' partition 1 ends at offset 50, but job 'g-shop' committed offset 50 "
                        + "there: the topic cannot deliver offset 51 (recreated or truncated?); resuming would skip "
                        + "whatever the topic holds now");
    }

    @Test
    void aPositionWhoseNextOffsetWasDeletedIsRefused() {
        assertThatThrownBy(() -> CommittedStartOffsets.plan("shop", TOPIC, "g-shop",
                Map.of("shop#" + ID, Map.of(2, 2L))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("topic 'shop' partition 2 starts at offset 5, but job 'g-shop' committed "
                        + "offset 2 there: offsets 3 to 4 were deleted (retention) before they were loaded");
    }

    @Test
    void aPositionOnAPartitionTheTopicDoesNotHaveIsRefused() {
        assertThatThrownBy(() -> CommittedStartOffsets.plan("shop", TOPIC, "g-shop",
                Map.of("shop#" + ID, Map.of(7, 2L))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("topic 'shop' partition 7 does not exist, but job 'g-shop' committed offset 2 there "
                        + "(the topic has 3 partitions)");
    }

    @Test
    void startOffsetsGiveTheListedPartitionsTheirOffsetAndAskTheEarliestForTheOthers() {
        StartOffsets offsets = new StartOffsets("shop", Map.of(0, 42L));
        List<TopicPartition> asked = List.of(new TopicPartition("shop", 0), new TopicPartition("shop", 1));

        Map<TopicPartition, Long> result = offsets.getPartitionOffsets(asked, new EarliestIsSeven());

        assertThat(new TreeMap<>(result.entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().partition(), Map.Entry::getValue))))
                .containsExactly(Map.entry(0, 42L), Map.entry(1, 7L));
    }

    @Test
    void topicSourceNamesCarryTheIdAndReadBack() {
        assertThat(TopicSource.name("shop.cdc", ID)).isEqualTo("shop.cdc#" + ID);
        assertThat(TopicSource.name("shop.cdc", null)).isEqualTo("shop.cdc");
        assertThat(TopicSource.topicOf("shop.cdc#" + ID)).isEqualTo("shop.cdc");
        assertThat(TopicSource.idOf("shop.cdc#" + ID)).isEqualTo(ID);
        assertThat(TopicSource.idOf("shop.cdc")).isNull();
    }

    private static final String ORDERS_ID = "ordersIdAAAAAAAAAAAAAA";
    private static final String TX_ID = "txIdAAAAAAAAAAAAAAAAAA";
    private static final TopicLayout LAYOUT = new TopicLayout("pg.transaction",
            List.of("pg.public.orders", "pg.public.accounts"), null, TopicLayout.DEFAULT_MAX_PENDING_BYTES, -1);
    /** The layout's topics: orders (3 partitions as TOPIC), accounts (one partition, id ID), the transaction topic. */
    private static final Map<String, CommittedStartOffsets.TopicOffsets> TOPICS = Map.of(
            "pg.public.orders", new CommittedStartOffsets.TopicOffsets(ORDERS_ID, TOPIC.earliest(), TOPIC.end()),
            "pg.public.accounts", new CommittedStartOffsets.TopicOffsets(ID, Map.of(0, 0L), Map.of(0, 10L)),
            "pg.transaction", new CommittedStartOffsets.TopicOffsets(TX_ID, Map.of(0, 0L), Map.of(0, 80L)));

    @Test
    void eachTopicOfTheLayoutStartsAfterItsCoveredPositionsAndTheRebuiltPositionIsReturned() {
        CommittedStartOffsets.Plan plan = CommittedStartOffsets.plan(LAYOUT, TOPICS, "g-pg", Map.of(
                "pg.public.orders#" + ORDERS_ID, Map.of(0, 41L, 2, 59L),
                "pg.transaction#" + TX_ID, Map.of(0, 70L),
                "pg.transaction+rebuilt", Map.of(0, 12L),
                "other#x", Map.of(1, 999L)));

        assertThat(plan.source()).isEqualTo("pg.transaction+rebuilt");
        assertThat(plan.rebuiltPosition()).isEqualTo(12L);
        assertThat(plan.sources()).isEqualTo(Map.of("pg.public.orders", "pg.public.orders#" + ORDERS_ID,
                "pg.public.accounts", "pg.public.accounts#" + ID, "pg.transaction", "pg.transaction#" + TX_ID));
        assertThat(plan.offsets().topics()).containsExactly("pg.public.accounts", "pg.public.orders",
                "pg.transaction");
        assertThat(plan.offsets().offsets("pg.public.orders")).containsExactly(Map.entry(0, 42L), Map.entry(2, 60L));
        assertThat(plan.offsets().offsets("pg.public.accounts")).isEmpty();
        assertThat(plan.offsets().offsets("pg.transaction")).containsExactly(Map.entry(0, 71L));
        assertThat(plan.offsets().offsets("pg.transaction+rebuilt")).as("never a Kafka topic").isEmpty();
    }

    @Test
    void aLayoutWithoutCommittedPositionsStartsEverywhereEarliestWithoutARebuiltPosition() {
        CommittedStartOffsets.Plan plan = CommittedStartOffsets.plan(LAYOUT, TOPICS, "g-pg", Map.of());

        assertThat(plan.offsets().isEmpty()).isTrue();
        assertThat(plan.rebuiltPosition()).isEqualTo(-1L);
        assertThat(plan.sources()).containsEntry("pg.transaction", "pg.transaction#" + TX_ID);
    }

    @Test
    void eachTopicOfTheLayoutIsCheckedOnItsOwn() {
        assertThatThrownBy(() -> CommittedStartOffsets.plan(LAYOUT, TOPICS, "g-pg",
                Map.of("pg.public.accounts#OLDID", Map.of(0, 3L))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("topic 'pg.public.accounts' changed identity: job 'g-pg' committed "
                        + "positions for topic id OLDID (partitions 0@3) but the topic now has id " + ID);
        assertThatThrownBy(() -> CommittedStartOffsets.plan(LAYOUT, TOPICS, "g-pg",
                Map.of("pg.transaction#" + TX_ID, Map.of(0, 80L))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("topic 'pg.transaction' partition 0 ends at offset 80, but job 'g-pg' "
                        + "committed offset 80 there");
        assertThatThrownBy(() -> CommittedStartOffsets.plan(LAYOUT, TOPICS, "g-pg",
                Map.of("pg.public.orders#" + ORDERS_ID, Map.of(2, 2L))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("topic 'pg.public.orders' partition 2 starts at offset 5");
    }

    @Test
    void multiTopicStartOffsetsGiveEachTopicsListedPartitionsTheirOffset() {
        StartOffsets offsets = new StartOffsets(Map.of("a", Map.of(0, 42L), "b", Map.of(1, 5L)));
        List<TopicPartition> asked = List.of(new TopicPartition("a", 0), new TopicPartition("a", 1),
                new TopicPartition("b", 0), new TopicPartition("b", 1));

        Map<TopicPartition, Long> result = offsets.getPartitionOffsets(asked, new EarliestIsSeven());

        assertThat(new TreeMap<>(result.entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().toString(), Map.Entry::getValue))))
                .containsExactly(Map.entry("a-0", 42L), Map.entry("a-1", 7L), Map.entry("b-0", 7L),
                        Map.entry("b-1", 5L));
        assertThatThrownBy(offsets::offsets).isInstanceOf(IllegalStateException.class);
        assertThat(new StartOffsets("a", Map.of(0, 1L)).offsets()).containsExactly(Map.entry(0, 1L));
    }

    /** Answers 7 as every partition's earliest offset; nothing else is expected to be asked. */
    private static final class EarliestIsSeven implements PartitionOffsetsRetriever {
        @Override
        public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
            return partitions.stream().collect(Collectors.toMap(p -> p, p -> 7L));
        }

        @Override
        public Map<TopicPartition, Long> committedOffsets(Collection<TopicPartition> partitions) {
            throw new AssertionError("the consumer group's offsets must not be used");
        }

        @Override
        public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
            throw new AssertionError("end offsets are not a start");
        }

        @Override
        public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestamps) {
            throw new AssertionError("not asked");
        }
    }
}
