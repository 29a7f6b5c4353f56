package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
