package com.starrocks.connector.flink.table.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.sink.AtLeastOnceSinkFunction;
import io.lockstep.flink.sink.ExactlyOnceSinkFunction;
import io.lockstep.flink.sink.MultiTableSinkFunction;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

class SinkFunctionFactoryTest {

    @Test
    void v1IsRejectedWithANamedError() {
        StarRocksSinkOptions options = StarRocksSinkOptionsTest.required().withProperty("sink.version", "V1").build();

        assertThatThrownBy(() -> SinkFunctionFactory.createSinkFunction(options))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessage("Invalid sink option 'sink.version' = 'V1': Lockstep implements only the transaction stream "
                        + "load sink; expected 'V2' or 'AUTO'");
    }

    @Test
    void autoV2AndExactlyOnceOptionsPassValidation() {
        assertThatCode(() -> SinkFunctionFactory.validate(StarRocksSinkOptionsTest.required().build()))
                .doesNotThrowAnyException();
        assertThatCode(() -> SinkFunctionFactory.validate(StarRocksSinkOptionsTest.required()
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.label-prefix", "job1")
                .build()))
                .doesNotThrowAnyException();
    }

    @Test
    void nullOptionsAreRejected() {
        assertThatThrownBy(() -> SinkFunctionFactory.createSinkFunction(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("sinkOptions is null; build them with StarRocksSinkOptions.builder()");
    }

    @Test
    void multiTableOptionsGiveTheMultiTableSink() {
        StarRocksSinkOptions options = json().withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true").build();

        assertThat(SinkFunctionFactory.<Object>createSinkFunction(options)).isInstanceOf(MultiTableSinkFunction.class);
    }

    @Test
    void singleTableAtLeastOnceOptionsGiveTheAtLeastOnceSink() {
        assertThat(SinkFunctionFactory.<Object>createSinkFunction(json().build()))
                .isInstanceOf(AtLeastOnceSinkFunction.class);
    }

    @Test
    void singleTableExactlyOnceGetsTheTwoPhaseCommitSink() {
        StarRocksSinkOptions options = json().withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.label-prefix", "job1").build();

        assertThat(SinkFunctionFactory.<Object>createSinkFunction(options))
                .isInstanceOf(ExactlyOnceSinkFunction.class);
    }

    @Test
    void theStarRocksConnectorsDefaultCsvFormatMakesASinkThatWritesCsvRecords() {
        // options as for the official connector: no sink.properties.format, so CSV (its default)
        StarRocksSinkOptions options = StarRocksSinkOptionsTest.required().build();

        assertThat(SinkFunctionFactory.<Object>createSinkFunction(options)).isInstanceOf(AtLeastOnceSinkFunction.class);
        assertThat(io.lockstep.flink.sink.SinkSettings.from(options).engineConfig(0, null).loadFormat())
                .isInstanceOf(io.lockstep.core.format.CsvLoadFormat.class);
    }

    @Test
    void createdSinksSurviveJavaSerialization() throws Exception {
        SinkFunction<Object> sink = SinkFunctionFactory.createSinkFunction(json().withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true").build());

        assertThat(InstantiationUtil.clone(sink)).isInstanceOf(MultiTableSinkFunction.class);
    }

    static StarRocksSinkOptions.Builder json() {
        return StarRocksSinkOptionsTest.required().withProperty("sink.properties.format", "json");
    }
}
