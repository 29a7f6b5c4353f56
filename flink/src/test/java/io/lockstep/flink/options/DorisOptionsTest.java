package io.lockstep.flink.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.sink.SinkFunctionFactory;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.flink.sink.AtLeastOnceSinkFunction;
import io.lockstep.flink.sink.ExactlyOnceSinkFunction;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** {@code sink.target=doris}: the Doris connector's option names and the Doris rules, with the messages users see. */
class DorisOptionsTest {

    private static StarRocksSinkOptions.Builder doris() {
        return StarRocksSinkOptions.builder()
                .withProperty("sink.target", "doris")
                .withProperty("fenodes", "fe1:8030,fe2:8030")
                .withProperty("table.identifier", "shop.orders")
                .withProperty("username", "root")
                .withProperty("sink.properties.format", "json");
    }

    private static AbstractThrowableAssert<?, ?> assertRejected(StarRocksSinkOptions.Builder builder, String key) {
        return assertThatThrownBy(builder::build)
                .isInstanceOf(InvalidSinkOptionException.class)
                .satisfies(e -> assertThat(((InvalidSinkOptionException) e).getOptionKey()).isEqualTo(key));
    }

    @Test
    void dorisNamesStandForTheCatalogueOptions() {
        StarRocksSinkOptions options = doris().withProperty("sink.enable-2pc", "true")
                .withProperty("sink.label-prefix", "shop_job").build();

        assertThat(options.getTarget()).isEqualTo(SinkTarget.DORIS);
        assertThat(options.getLoadUrls()).containsExactly("http://fe1:8030", "http://fe2:8030");
        assertThat(options.getDatabaseName()).isEqualTo("shop");
        assertThat(options.getTableName()).isEqualTo("orders");
        assertThat(options.getSemantic()).isEqualTo(SinkSemantic.EXACTLY_ONCE);
        assertThat(options.getLabelPrefix()).isEqualTo("shop_job");
        assertThat(options.toMap()).doesNotContainKeys("fenodes", "table.identifier", "sink.enable-2pc");
        assertThat(doris().withProperty("sink.enable-2pc", "false").build().getSemantic())
                .isEqualTo(SinkSemantic.AT_LEAST_ONCE);
    }

    @Test
    void theCanonicalNamesWorkForDorisToo() {
        StarRocksSinkOptions options = StarRocksSinkOptions.builder().withProperty("sink.target", "DORIS")
                .withProperty("load-url", "fe:8030").withProperty("database-name", "*")
                .withProperty("table-name", "*").withProperty("username", "root").build();

        assertThat(options.getTarget()).isEqualTo(SinkTarget.DORIS);
        assertThat(options.getSemantic()).as("Lockstep's default, unlike the Doris connector's")
                .isEqualTo(SinkSemantic.AT_LEAST_ONCE);
    }

    @Test
    void dorisNamesNeedTheDorisTarget() {
        assertRejected(doris().withProperty("sink.target", "starrocks"), "fenodes")
                .hasMessage("Sink option 'fenodes' is an Apache Doris connector option: set 'sink.target' = 'doris'"
                        + " to write to Doris, or use 'load-url' for StarRocks");
    }

    @Test
    void aDorisNameAndTheOptionItStandsForAreNotBothSet() {
        assertRejected(doris().withProperty("load-url", "fe:8030"), "fenodes")
                .hasMessage("Sink options 'fenodes' and 'load-url' are both set: they name the same FE addresses;"
                        + " keep one of them");
        assertRejected(doris().withProperty("table-name", "x"), "table.identifier")
                .hasMessageContaining("is set together with 'database-name' or 'table-name'");
        assertRejected(doris().withProperty("sink.enable-2pc", "true").withProperty("sink.semantic",
                "at-least-once"), "sink.enable-2pc")
                .hasMessage("Sink option 'sink.enable-2pc' = 'true' contradicts 'sink.semantic' = 'at-least-once':"
                        + " 2PC means exactly-once; keep one of the two options");
    }

    @Test
    void aMalformedTableIdentifierIsNamed() {
        assertRejected(doris().withProperty("table.identifier", "orders"), "table.identifier")
                .hasMessage("Invalid sink option 'table.identifier' = 'orders': expected 'database.table'");
    }

    @Test
    void multiTableAtomicModeIsRefusedPointingToThePerTableGuarantee() {
        assertRejected(doris().withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true"), "sink.transaction.multi-table.enabled")
                .hasMessageContaining("Apache Doris has no multi-table transaction over HTTP")
                .hasMessageContaining("'sink.semantic' = 'exactly-once' every table is loaded exactly once per "
                        + "checkpoint")
                .hasMessageContaining("docs/doris.md");
    }

    @Test
    void headersThatChangeWhatALabelMeansAreRefused() {
        for (String header : List.of("two_phase_commit", "group_commit", "txn_operation")) {
            assertRejected(doris().withProperty("sink.properties." + header, "x"), "sink.properties." + header)
                    .hasMessageContaining("the sink sets '" + header + "' itself");
        }
    }

    @Test
    void dorisLoadsGetNoStarRocksOnlyJsonHeader() {
        assertThat(doris().build().streamLoadHeadersFor("shop", "orders"))
                .containsEntry("strip_outer_array", "true").doesNotContainKey("ignore_json_size");
    }

    @Test
    void theFactoryTakingATargetPicksTheSinkByTheSemantic() {
        Map<String, String> options = Map.of("load-url", "fe:8030", "database-name", "*", "table-name", "*",
                "username", "root", "sink.properties.format", "json");

        assertThat((Object) SinkFunctionFactory.createSinkFunction(SinkTarget.DORIS, options))
                .isInstanceOf(AtLeastOnceSinkFunction.class);
        Map<String, String> exactlyOnce = new java.util.HashMap<>(options);
        exactlyOnce.put("sink.enable-2pc", "true");
        assertThat((Object) SinkFunctionFactory.createSinkFunction(SinkTarget.DORIS, exactlyOnce))
                .isInstanceOf(ExactlyOnceSinkFunction.class);
        Map<String, String> contradicting = new java.util.HashMap<>(options);
        contradicting.put("sink.target", "starrocks");
        assertThatThrownBy(() -> SinkFunctionFactory.createSinkFunction(SinkTarget.DORIS, contradicting))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("contradicts the target 'doris'");
    }
}
