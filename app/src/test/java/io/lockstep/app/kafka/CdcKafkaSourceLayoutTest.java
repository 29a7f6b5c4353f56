package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.rebuild.TopicLayout;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.flink.api.common.eventtime.WatermarkAlignmentParams;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.junit.jupiter.api.Test;

/**
 * What the Kafka source of Debezium's default layout subscribes to, and the alignment its watermark strategy asks
 * Flink for (the pausing itself: {@link TopicAlignmentTest}).
 */
class CdcKafkaSourceLayoutTest {

    @Test
    void aPatternSubscriptionReadsTheMatchingTableTopicsAndTheTransactionTopicOnly() {
        Pattern subscription = CdcKafkaSource.subscription(new TopicLayout("pg.transaction", List.of(),
                "pg\\.public\\..*", TopicLayout.DEFAULT_MAX_PENDING_BYTES, -1));

        assertThat(subscription.matcher("pg.public.orders").matches()).isTrue();
        assertThat(subscription.matcher("pg.transaction").matches()).isTrue();
        assertThat(subscription.matcher("pgXtransaction").matches()).as("the topic name is quoted").isFalse();
        assertThat(subscription.matcher("pg.other.orders").matches()).isFalse();
    }

    @Test
    void theWatermarksAlignEveryPartitionWithinTheDrift() {
        WatermarkStrategy<SourceRecord> strategy = CdcKafkaSource.alignedWatermarks(Duration.ofSeconds(30),
                CdcKafkaSource.ALIGNMENT_UPDATE_INTERVAL);
        WatermarkAlignmentParams alignment = strategy.getAlignmentParameters();

        assertThat(alignment.isEnabled()).isTrue();
        assertThat(alignment.getWatermarkGroup()).isEqualTo(CdcKafkaSource.ALIGNMENT_GROUP);
        assertThat(alignment.getMaxAllowedWatermarkDrift()).isEqualTo(30_000L);
        assertThat(alignment.getUpdateInterval()).isEqualTo(1_000L);
        assertThatThrownBy(() -> CdcKafkaSource.alignedWatermarks(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be positive");
    }

    @Test
    void aTableTopicPatternThatIsNoRegularExpressionIsNamed() {
        TopicLayout layout = new TopicLayout("pg.transaction", List.of(), "pg.(", 1, -1);
        assertThatThrownBy(() -> CdcKafkaSource.subscription(layout)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the table topic pattern 'pg.(' is not a regular expression");
    }
}
