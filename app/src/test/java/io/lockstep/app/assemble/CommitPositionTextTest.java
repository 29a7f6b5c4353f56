package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.Gtid;
import org.junit.jupiter.api.Test;

/** The commit position text a transaction-end row carries, and the GTID set it holds. */
class CommitPositionTextTest {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    @Test
    void aGtidSetMergesAdjacentIntervalsAndKnowsItsGaps() {
        GtidSet set = new GtidSet();
        for (long n : new long[] {1, 2, 5, 3, 9, 7}) {
            set.add(new Gtid(UUID, n));
        }
        set.add(new Gtid(UUID + ":batch", 4));

        assertThat(set).hasToString(UUID + ":1-3:5:7:9," + UUID + ":batch:4");
        assertThat(set.contains(new Gtid(UUID, 6))).isFalse();
        assertThat(set.contains(new Gtid(UUID, 7))).isTrue();
        assertThat(set.contains(new Gtid(UUID + ":batch", 1))).isFalse();
        set.add(new Gtid(UUID, 4));
        set.add(new Gtid(UUID, 6));
        set.add(new Gtid(UUID, 8));
        assertThat(set).hasToString(UUID + ":1-9," + UUID + ":batch:4");
    }

    @Test
    void aCommittedGtidPositionRoundTripsWithItsSet() {
        GtidSet set = new GtidSet();
        set.add(new Gtid(UUID, 1));
        set.add(new Gtid(UUID, 3));
        String text = "{\"kind\":\"gtid\",\"gtid\":\"" + UUID + ":3\",\"commitTimeMs\":5,\"gtidSet\":{\"" + UUID
                + "\":[[1,1],[3,3]]}}";

        CommitPosition parsed = CommitPosition.parse(text);

        assertThat(parsed.toText()).isEqualTo(text);
        assertThat(parsed.gtidSet).hasToString(set.toString());
        assertThat(parsed.describe()).isEqualTo("GTID " + UUID + ":3");
    }

    @Test
    void textsThatAreNoPositionAreRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> CommitPosition.parse("{\"kind\":\"scn\"}"))
                .hasMessage("unknown commit position kind 'scn'");
        assertThatThrownBy(() -> CommitPosition.parse("{\"kind\":\"binlog\",\"file\":\"f\"}"))
                .hasMessage("a 'binlog' position without its 'file' and 'pos'");
        assertThatThrownBy(() -> CommitPosition.parse("{\"kind\":\"gtid\",\"gtid\":\"" + UUID + ":3\","
                + "\"gtidSet\":{\"" + UUID + "\":[[3,1]]}}"))
                .hasMessage("GTID interval of '" + UUID + "' is not [first, last] with 1 <= first <= last");
        assertThatThrownBy(() -> CommitPosition.parse("[1]")).hasMessage("not a JSON object");
    }

    @Test
    void aPositionOverTheColumnsSizeIsRefused() {
        StringBuilder set = new StringBuilder();
        for (int i = 0; i < 1500; i++) {
            set.append(i == 0 ? "" : ",").append('"').append(String.format("%08x", i)).append(UUID.substring(8))
                    .append("\":[[1,1]]");
        }
        CommitPosition large = CommitPosition.parse("{\"kind\":\"gtid\",\"gtid\":\"" + UUID + ":1\",\"gtidSet\":{"
                + set + "}}");

        assertThatThrownBy(large::toText).isInstanceOf(TransactionAssemblyException.class)
                .hasMessageStartingWith("the commit position after GTID " + UUID + ":1 is ")
                .hasMessageContaining("over the 65533 the progress table's commit_position column holds (a GTID set "
                        + "with 1500 source ids)");
    }

    @Test
    void aGtidSetWithGapsCollapsesBelowItsWindowWhenReadAndWhenExtended() {
        StringBuilder gapped = new StringBuilder();
        for (long n = 1; n <= 4_999; n += 2) { // as an unbounded set wrote it: :1, :3, .., :4999
            gapped.append(n == 1 ? "" : ",").append('[').append(n).append(',').append(n).append(']');
        }
        CommitPosition read = CommitPosition.parse("{\"kind\":\"gtid\",\"gtid\":\"" + UUID + ":4999\","
                + "\"commitTimeMs\":1,\"gtidSet\":{\"" + UUID + "\":[" + gapped + "]}}");

        var intervals = read.gtidSet.toMap().get(UUID);
        assertThat(intervals).hasSize(1 + 500);
        assertThat(intervals.get(0)).containsExactly(1, 4_999 - GtidSet.WINDOW);
        assertThat(read.gtidSet.contains(new Gtid(UUID, 3_998))).as("below the floor: committed").isTrue();
        assertThat(read.gtidSet.contains(new Gtid(UUID, 4_001))).isTrue();
        assertThat(read.gtidSet.contains(new Gtid(UUID, 4_002))).as("a gap in the window").isFalse();

        GtidSet set = read.gtidSet;
        set.add(new Gtid(UUID, 5_101)); // the floor moves up by 102
        assertThat(set.toMap().get(UUID).get(0)).containsExactly(1, 5_101 - GtidSet.WINDOW);
        assertThat(set.contains(new Gtid(UUID, 4_100))).isTrue();
        assertThat(set.contains(new Gtid(UUID, 4_102))).isFalse();
        assertThat(set.contains(new Gtid(UUID, 5_100))).isFalse();
    }
}
