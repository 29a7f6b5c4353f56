package io.lockstep.app.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.StarRocksEmulator;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * The column readers against the emulator: what {@link JdbcColumnReader} (query port) and {@link HttpSqlColumnReader}
 * (HTTP SQL API) read, and how they name each failure, so that the column check can react to it
 * ({@link TargetColumns}).
 */
class ColumnReadersTest {

    @Test
    void bothReadersReadTypesAndNullabilityAndNameEachFailureByKind() throws Exception {
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().user("root", "secret")
                .ddl("CREATE DATABASE dw; CREATE TABLE dw.orders (id BIGINT NOT NULL, note VARCHAR(16)) "
                        + "PRIMARY KEY (id);").build().start()) {
            assertThat(new JdbcColumnReader(starRocks.jdbcUrl(), "root", "secret").columns("dw", "orders"))
                    .containsExactly(new TargetColumn("id", "bigint(20)", false),
                            new TargetColumn("note", "varchar(16)", true));

            assertThatThrownBy(() -> new JdbcColumnReader(starRocks.jdbcUrl(), "root", "secret").columns("dw", "gone"))
                    .isInstanceOf(ColumnReadException.class).hasMessageContaining("dw.gone")
                    .extracting(e -> ((ColumnReadException) e).kind())
                    .isEqualTo(ColumnReadException.Kind.MISSING_TABLE);
            assertThatThrownBy(() -> new JdbcColumnReader(starRocks.jdbcUrl(), "root", "wrong").columns("dw", "orders"))
                    .isInstanceOf(ColumnReadException.class).hasMessageNotContaining("wrong")
                    .extracting(e -> ((ColumnReadException) e).kind())
                    .isEqualTo(ColumnReadException.Kind.ACCESS_DENIED);

            assertThat(http(starRocks, "secret").columns("dw", "orders")).as("the same as DESC")
                    .containsExactly(new TargetColumn("id", "bigint(20)", false),
                            new TargetColumn("note", "varchar(16)", true));
            assertThatThrownBy(() -> http(starRocks, "secret").columns("dw", "gone"))
                    .isInstanceOf(ColumnReadException.class).hasMessageContaining("dw.gone")
                    .extracting(e -> ((ColumnReadException) e).kind())
                    .isEqualTo(ColumnReadException.Kind.MISSING_TABLE);
            assertThatThrownBy(() -> http(starRocks, "wrong").columns("dw", "orders"))
                    .isInstanceOf(ColumnReadException.class).hasMessageNotContaining("wrong")
                    .extracting(e -> ((ColumnReadException) e).kind())
                    .isEqualTo(ColumnReadException.Kind.ACCESS_DENIED);
        }
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        assertThatThrownBy(() -> new JdbcColumnReader("jdbc:mysql://127.0.0.1:" + closedPort, "root", "")
                .columns("dw", "orders"))
                .isInstanceOf(ColumnReadException.class)
                .extracting(e -> ((ColumnReadException) e).kind()).isEqualTo(ColumnReadException.Kind.OUTAGE);
    }

    @Test
    void theDorisSchemaReaderReadsTypesAndNamesEachFailureByKind() throws Exception {
        try (DorisEmulator doris = DorisEmulator.builder().user("root", "secret")
                .ddl("CREATE DATABASE dw; CREATE TABLE dw.orders (id BIGINT NOT NULL, note VARCHAR(16), "
                        + "total DECIMAL(12, 2), day DATE) UNIQUE KEY (id);").build().start()) {
            assertThat(new DorisSchemaColumnReader(options(doris.feUrl(), "secret")).columns("dw", "orders"))
                    .as("_schema has no VARCHAR length and no nullability")
                    .containsExactly(new TargetColumn("id", "bigint", true), new TargetColumn("note", null, true),
                            new TargetColumn("total", "decimal(12,2)", true), new TargetColumn("day", "date", true));

            for (String[] missing : new String[][] {{"dw", "gone"}, {"nodb", "orders"}}) {
                assertThatThrownBy(() -> new DorisSchemaColumnReader(options(doris.feUrl(), "secret"))
                        .columns(missing[0], missing[1]))
                        .isInstanceOf(ColumnReadException.class).hasMessageContaining(missing[0] + "." + missing[1])
                        .extracting(e -> ((ColumnReadException) e).kind())
                        .isEqualTo(ColumnReadException.Kind.MISSING_TABLE);
            }
            assertThatThrownBy(() -> new DorisSchemaColumnReader(options(doris.feUrl(), "wrong"))
                    .columns("dw", "orders"))
                    .isInstanceOf(ColumnReadException.class).hasMessageNotContaining("wrong")
                    .extracting(e -> ((ColumnReadException) e).kind())
                    .isEqualTo(ColumnReadException.Kind.ACCESS_DENIED);
        }
    }

    private static StarRocksSinkOptions options(String loadUrl, String password) {
        return StarRocksSinkOptions.builder().withProperty("load-url", loadUrl)
                .withProperty("database-name", "dw").withProperty("table-name", "orders")
                .withProperty("username", "root").withProperty("password", password)
                .withProperty("sink.properties.format", "json").build();
    }

    private static HttpSqlColumnReader http(StarRocksEmulator starRocks, String password) {
        return new HttpSqlColumnReader(StarRocksSinkOptions.builder().withProperty("load-url", starRocks.feUrl())
                .withProperty("database-name", "dw").withProperty("table-name", "orders")
                .withProperty("username", "root").withProperty("password", password)
                .withProperty("sink.properties.format", "json").build());
    }
}
