package io.lockstep.core.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadFormatsTest {
    @Test
    void jsonIsChosenByNameIgnoringCaseAndBlanks() {
        assertThat(LoadFormats.forName(" JSON ", "sink.properties.format")).isSameAs(JsonLoadFormat.INSTANCE);
    }

    @Test
    void findKnowsTheImplementedFormats() {
        assertThat(LoadFormats.find("Json")).containsSame(JsonLoadFormat.INSTANCE);
        assertThat(LoadFormats.find(" CSV ")).get().isInstanceOf(CsvLoadFormat.class);
        assertThat(LoadFormats.find(null)).isEmpty();
        assertThat(LoadFormats.find("parquet")).isEmpty();
    }

    @Test
    void csvReadsItsSeparatorsFromTheHeadersAndIsNewPerCall() {
        LoadFormat csv = LoadFormats.forName("csv", "sink.properties.format", Map.of("column_separator", "\\x01"));
        assertThat(csv).isInstanceOf(CsvLoadFormat.class);
        assertThat(csv.headers()).containsEntry("column_separator", "\\x01").containsEntry("format", "csv");
        assertThat(LoadFormats.forName("csv", "s")).isNotSameAs(LoadFormats.forName("csv", "s"));
    }

    @Test
    void anUnreadableCsvSeparatorIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> LoadFormats.forName("csv", "sink.properties.format",
                Map.of("column_separator", "\\xZZ")))
                .isInstanceOf(UnsupportedLoadFormatException.class)
                .hasMessageStartingWith("Invalid sink.properties.format = 'csv': Invalid column_separator = '\\xZZ'");
    }

    @Test
    void anUnknownNameIsRefusedNamingTheSettingAndTheName() {
        assertThatThrownBy(() -> LoadFormats.forName("parquet", "sink.properties.format"))
                .isInstanceOf(UnsupportedLoadFormatException.class)
                .hasMessage("Invalid sink.properties.format = 'parquet': not a load format Lockstep sends; "
                        + "expected 'json' or 'csv'");
    }
}
