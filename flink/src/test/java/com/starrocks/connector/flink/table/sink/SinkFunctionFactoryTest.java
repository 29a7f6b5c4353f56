package com.starrocks.connector.flink.table.sink;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.flink.options.InvalidSinkOptionException;
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

    /** Pins the interim behaviour; replace with real sink tests when issue 4's sink exists. */
    @Test
    void createSinkFunctionIsNotAvailableYet() {
        StarRocksSinkOptions options = StarRocksSinkOptionsTest.required().build();

        assertThatThrownBy(() -> SinkFunctionFactory.createSinkFunction(options))
                .isExactlyInstanceOf(UnsupportedOperationException.class)
                .hasMessage("sink not built yet: issue 4 (the options are valid: single-table, at-least-once, "
                        + "target test.orders)");
    }
}
