package io.lockstep.core.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.engine.DeliverySemantic;
import io.lockstep.core.engine.LoadMethod;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetTest {

    @Test
    void lookupReadsEitherValueAndRefusesAnUnknownOneInOneLine() {
        assertThat(Target.fromOptionValue(" Doris ")).isEqualTo(Target.DORIS);
        assertThat(Target.fromOptionValue("starrocks")).isEqualTo(Target.STARROCKS);
        assertThatThrownBy(() -> Target.fromOptionValue("mysql"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected one of 'starrocks', 'doris'");
        assertThatThrownBy(() -> Target.fromOptionValue(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void loadMethodAndHeaderSplitFollowTheTarget() {
        assertThat(Target.STARROCKS.loadMethod(false, DeliverySemantic.AT_LEAST_ONCE))
                .isEqualTo(LoadMethod.TRANSACTION);
        assertThat(Target.DORIS.loadMethod(false, DeliverySemantic.AT_LEAST_ONCE)).isEqualTo(LoadMethod.CLASSIC);
        assertThat(Target.DORIS.loadMethod(false, DeliverySemantic.EXACTLY_ONCE))
                .isEqualTo(LoadMethod.TWO_PHASE_STREAM_LOAD);
        Map<String, String> headers = Map.of("timeout", "600", "format", "json");
        assertThat(Target.STARROCKS.loadHeaders(headers)).containsOnlyKeys("format");
        assertThat(Target.DORIS.loadHeaders(headers)).containsOnlyKeys("timeout", "format");
    }
}
