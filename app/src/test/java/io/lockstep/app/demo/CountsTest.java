package io.lockstep.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CountsTest {

    @Test
    void oneTakesTheSingularEveryOtherCountThePlural() {
        assertThat(Counts.of(1, "source transaction")).isEqualTo("1 source transaction");
        assertThat(Counts.of(0, "StarRocks transaction")).isEqualTo("0 StarRocks transactions");
        assertThat(Counts.of(12_345, "row")).isEqualTo("12,345 rows");
        assertThat(Counts.of(-1, "restart")).isEqualTo("-1 restarts");
    }
}
