package com.starrocks.data.load.stream.properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;

class StreamLoadTablePropertiesTest {

    @Test
    void builderRoundTripsDatabaseTableAndProperties() {
        StreamLoadTableProperties properties = StreamLoadTableProperties.builder()
                .database("test")
                .table("order_items")
                .addProperty("format", "json")
                .addProperty("strip_outer_array", "true")
                .addProperty("ignore_json_size", "true")
                .build();

        assertThat(properties.getDatabase()).isEqualTo("test");
        assertThat(properties.getTable()).isEqualTo("order_items");
        assertThat(properties.getUniqueKey()).isEqualTo("test.order_items");
        assertThat(properties.getProperties()).containsExactly(
                entry("format", "json"), entry("strip_outer_array", "true"), entry("ignore_json_size", "true"));
        assertThat(properties.getProperty("FORMAT")).isEqualTo("json");
        assertThat(properties.getProperty("columns")).isNull();
    }

    @Test
    void namesAreLowerCasedAndALaterValueWins() {
        StreamLoadTableProperties properties = StreamLoadTableProperties.builder()
                .database("d").table("t")
                .addProperty("Max_Filter_Ratio", "0.2")
                .addProperty("max_filter_ratio", "0")
                .build();

        assertThat(properties.getProperties()).containsExactly(entry("max_filter_ratio", "0"));
    }

    @Test
    void propertiesAreReadOnlyAndDetachedFromTheBuilder() {
        StreamLoadTableProperties.Builder builder = StreamLoadTableProperties.builder().database("d").table("t")
                .addProperty("a", "1");
        StreamLoadTableProperties built = builder.build();
        builder.addProperty("b", "2");

        assertThat(built.getProperties()).containsOnlyKeys("a");
        assertThatThrownBy(() -> built.getProperties().put("c", "3")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void missingBlankOrWildcardTargetIsRejected() {
        assertThatThrownBy(() -> StreamLoadTableProperties.builder().table("t").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid StreamLoadTableProperties: database is 'null'; expected the name of one database "
                        + "(set it with .database(...))");
        assertThatThrownBy(() -> StreamLoadTableProperties.builder().database("d").table(" ").build())
                .hasMessage("Invalid StreamLoadTableProperties: table is ' '; expected the name of one table "
                        + "(set it with .table(...))");
        assertThatThrownBy(() -> StreamLoadTableProperties.builder().database("*").table("t").build())
                .hasMessageStartingWith("Invalid StreamLoadTableProperties: database is '*'");
    }

    @Test
    void reservedBlankOrNullPropertiesAreRejected() {
        assertThatThrownBy(() -> StreamLoadTableProperties.builder().database("d").table("t").addProperty("Label", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid stream load property 'Label' for table 'd.t': the header is set by the sink itself "
                        + "(labels, routing, authentication); remove it");
        assertThatThrownBy(() -> StreamLoadTableProperties.builder().database("d").table("t").addProperty(" ", "x"))
                .hasMessage("Invalid stream load property name ' ' for table 'd.t': expected a header name");
        assertThatThrownBy(() -> StreamLoadTableProperties.builder().database("d").table("t").addProperty("format", null))
                .hasMessage("Invalid stream load property 'format' for table 'd.t': the value is null");
    }

    @Test
    void equalityFollowsAllFields() {
        StreamLoadTableProperties a = StreamLoadTableProperties.builder().database("d").table("t").addProperty("a", "1").build();

        assertThat(a).isEqualTo(StreamLoadTableProperties.builder().database("d").table("t").addProperty("A", "1").build())
                .hasSameHashCodeAs(StreamLoadTableProperties.builder().database("d").table("t").addProperty("a", "1").build());
        assertThat(a).isNotEqualTo(StreamLoadTableProperties.builder().database("d").table("t").addProperty("a", "2").build());
        assertThat(a).isNotEqualTo(StreamLoadTableProperties.builder().database("d").table("u").addProperty("a", "1").build());
        assertThat(a.toString()).contains("d.t", "a=1");
    }
}
