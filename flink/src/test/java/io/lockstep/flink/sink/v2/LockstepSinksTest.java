package io.lockstep.flink.sink.v2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkTarget;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which Sink V2 sink the options select, what is refused, and the committable's versioned form. */
class LockstepSinksTest {
    private static StarRocksSinkOptions.Builder base() {
        return StarRocksSinkOptions.builder().withProperty("load-url", "127.0.0.1:8030")
                .withProperty("database-name", "db").withProperty("table-name", "t")
                .withProperty("username", "root").withProperty("password", "")
                .withProperty("sink.properties.format", "json");
    }

    @Test
    void theOptionsSelectTheSinkOfTheirMode() {
        assertThat(LockstepSinks.createSink(base().build())).isInstanceOf(AtLeastOnceSink.class);
        assertThat(LockstepSinks.createSink(base().withProperty("sink.semantic", "exactly-once").build()))
                .isInstanceOf(ExactlyOnceSink.class);
        assertThat(LockstepSinks.createSink(base().withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true").build()))
                .isInstanceOf(MultiTableSink.class);
        assertThat(LockstepSinks.createSink(SinkTarget.DORIS, Map.of("fenodes", "127.0.0.1:8030",
                "table.identifier", "db.t", "username", "root", "password", "", "sink.enable-2pc", "true",
                "sink.properties.format", "json"))).isInstanceOf(ExactlyOnceSink.class);
    }

    @Test
    void versionOneAndAContradictingTargetAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> LockstepSinks.createSink(base().withProperty("sink.version", "V1").build()))
                .isInstanceOf(InvalidSinkOptionException.class).hasMessageContaining("'sink.version' = 'V1'");
        assertThatThrownBy(() -> LockstepSinks.createSink(SinkTarget.DORIS, Map.of("sink.target", "starrocks",
                "load-url", "127.0.0.1:8030", "database-name", "db", "table-name", "t", "username", "root")))
                .isInstanceOf(InvalidSinkOptionException.class).hasMessageContaining("'sink.target' = 'starrocks'");
    }

    @Test
    void compressionTheClientDoesNotImplementIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> LockstepSinks.createSink(SinkTarget.DORIS, Map.of("fenodes", "127.0.0.1:8030",
                "table.identifier", "db.t", "username", "root", "sink.properties.format", "json",
                "sink.properties.compress_type", "lzo")))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageStartingWith("Invalid sink option 'sink.properties.compress_type' = 'lzo': compress_type = "
                        + "'lzo' is not one Lockstep implements; expected one of 'gz', 'bz2', 'lz4'");
        assertThatThrownBy(() -> LockstepSinks.createSink(SinkTarget.DORIS, Map.of("fenodes", "127.0.0.1:8030",
                "table.identifier", "db.t", "username", "root", "sink.properties.compression", "zstd")))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("Doris reads the body's compression from compress_type");
        assertThatThrownBy(() -> LockstepSinks.createSink(SinkTarget.STARROCKS, Map.of("load-url", "127.0.0.1:8030",
                "database-name", "db", "table-name", "t", "username", "root", "sink.properties.format", "json",
                "sink.properties.Content-Encoding", "gzip")))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageStartingWith("Invalid sink option 'sink.properties.content-encoding' = 'gzip': StarRocks' "
                        + "Content-Encoding header is not sent by Lockstep");
        assertThatThrownBy(() -> LockstepSinks.createSink(SinkTarget.STARROCKS, Map.of("load-url", "127.0.0.1:8030",
                "database-name", "db", "table-name", "t", "username", "root", "sink.properties.format", "lz4")))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageStartingWith("Invalid sink option 'sink.properties.format' = 'lz4': 'lz4' is StarRocks' "
                        + "header for a compressed CSV body");
    }

    @Test
    void aSinkRefusesOptionsOfAnotherMode() {
        assertThatThrownBy(() -> new ExactlyOnceSink<>(base().build()))
                .isInstanceOf(InvalidSinkOptionException.class).hasMessageContaining("exactly-once");
        assertThatThrownBy(() -> new MultiTableSink<>(base().build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("sink.transaction.multi-table.enabled");
    }

    @Test
    void theCommittableRoundTripsAndAnUnknownVersionIsRefused() throws IOException {
        CheckpointedTransactionSerializer serializer = new CheckpointedTransactionSerializer();
        CheckpointedTransaction txn = new CheckpointedTransaction("db", "t", "p-t-0-run-7", 7, "run");

        assertThat(serializer.deserialize(1, serializer.serialize(txn))).isEqualTo(txn);
        assertThatThrownBy(() -> serializer.deserialize(2, serializer.serialize(txn)))
                .isInstanceOf(IOException.class).hasMessageContaining("version 2");
        assertThatThrownBy(() -> serializer.deserialize(1, new byte[] {0, 2, 'd'}))
                .isInstanceOf(IOException.class).hasMessageContaining("malformed");
    }
}
