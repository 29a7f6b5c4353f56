package io.lockstep.core.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LoadFormatsTest {
    @Test
    void jsonIsChosenByNameIgnoringCaseAndBlanks() {
        assertThat(LoadFormats.forName(" JSON ", "sink.properties.format")).isSameAs(JsonLoadFormat.INSTANCE);
    }

    @Test
    void findKnowsOnlyTheImplementedFormats() {
        assertThat(LoadFormats.find("Json")).containsSame(JsonLoadFormat.INSTANCE);
        assertThat(LoadFormats.find("csv")).isEmpty();
        assertThat(LoadFormats.find(null)).isEmpty();
    }

    @Test
    void csvIsRefusedWithTheSinksReasonNamingTheSetting() {
        assertThatThrownBy(() -> LoadFormats.forName("csv", "sink option 'sink.properties.format'"))
                .isInstanceOf(UnsupportedLoadFormatException.class)
                .hasMessage("Invalid sink option 'sink.properties.format' = 'csv': Lockstep's sinks load each row "
                        + "(getRow()) as one JSON object; expected 'json'")
                .satisfies(e -> assertThat(((UnsupportedLoadFormatException) e).reason())
                        .isEqualTo(LoadFormats.CSV_REASON));
    }

    @Test
    void anUnknownNameIsRefusedNamingTheSettingAndTheName() {
        assertThatThrownBy(() -> LoadFormats.forName("parquet", "sink.properties.format"))
                .isInstanceOf(UnsupportedLoadFormatException.class)
                .hasMessage("Invalid sink.properties.format = 'parquet': not a load format Lockstep sends; "
                        + "expected 'json'");
    }
}
