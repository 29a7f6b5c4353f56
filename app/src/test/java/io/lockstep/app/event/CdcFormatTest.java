package io.lockstep.app.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.DebeziumTransactionAssembler;
import io.lockstep.app.assemble.MaxwellTransactionAssembler;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The input-format registry: a name maps to its decoder and assembler; any other name is refused. */
class CdcFormatTest {

    private static final TableRouter ROUTER = TableRouter.parse(null, "dw", UnknownTableMode.FAIL);

    @Test
    void eachFormatNameMapsToItsDecoderAndAssembler() {
        assertThat(CdcFormat.parse("maxwell")).isSameAs(CdcFormat.MAXWELL);
        assertThat(CdcFormat.parse(" Debezium ")).isSameAs(CdcFormat.DEBEZIUM);
        assertThat(CdcFormat.MAXWELL.decoder(Map.of())).isInstanceOf(MaxwellDecoder.class);
        assertThat(CdcFormat.DEBEZIUM.decoder(Map.of())).isInstanceOf(DebeziumDecoder.class);
        assertThat(CdcFormat.MAXWELL.assembler(ROUTER, AssemblerOptions.defaults()))
                .isInstanceOf(MaxwellTransactionAssembler.class);
        assertThat(CdcFormat.DEBEZIUM.assembler(ROUTER, AssemblerOptions.defaults()))
                .isInstanceOf(DebeziumTransactionAssembler.class);
        assertThat(CdcFormat.MAXWELL.optionValue()).isEqualTo("maxwell");
    }

    @Test
    void anUnknownFormatNameIsRefusedNamingTheAcceptedOnesNeverReadAsDebezium() {
        assertThatThrownBy(() -> CdcFormat.parse("canal"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected one of [MAXWELL, DEBEZIUM] (case-insensitive) but was 'canal'");
    }
}
