package io.lockstep.app.create;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.route.TargetTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link TableSelection}: include/exclude patterns and target names. */
class TableSelectionTest {

    @Test
    void includeAndExcludeFullyMatchTheQualifiedName() {
        TableSelection selection = TableSelection.of("shop\\..*, crm\\.customers", "shop\\.tmp_.*", "dw", null, null);

        assertThat(selection.target("shop", "orders")).isEqualTo(new TargetTable("dw", "orders"));
        assertThat(selection.target("crm", "customers")).isEqualTo(new TargetTable("dw", "customers"));
        assertThat(selection.target("shop", "tmp_1")).isNull();
        assertThat(selection.target("crm", "customers_old")).isNull(); // a full match, not a find
        assertThat(selection.target("xshop", "orders")).isNull();
    }

    @Test
    void withoutPatternsEveryTableIsSelectedAndPrefixAndSuffixNameTheTarget() {
        TableSelection selection = TableSelection.of(null, " ", "dw", "ods_", "_v1");

        assertThat(selection.target("public", "orders")).isEqualTo(new TargetTable("dw", "ods_orders_v1"));
    }

    @Test
    void aCommaInsideBracesBelongsToItsPattern() {
        TableSelection selection = TableSelection.of("shop\\.t[0-9]{1,2},shop\\.(a|b),c", null, "dw", null, null);

        assertThat(selection.includes("shop", "t42")).isTrue();
        assertThat(selection.includes("shop", "t123")).isFalse();
        assertThat(selection.includes("shop", "b")).isTrue();
    }

    @Test
    void aBadPatternIsNamed() {
        assertThatThrownBy(() -> TableSelection.of("shop\\.ok,shop\\.(bad", null, "dw", null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--include-tables pattern 'shop\\.(bad' is not a Java regular expression");
        assertThatThrownBy(() -> TableSelection.of(null, "a,,b", "dw", null, null))
                .hasMessage("--exclude-tables 'a,,b' has an empty pattern");
        assertThatThrownBy(() -> TableSelection.of(null, null, " ", null, null))
                .hasMessageContaining("needs a target database");
    }

    @Test
    void twoSourceTablesForOneTargetAreRefused() {
        TableSelection selection = TableSelection.of(null, null, "dw", null, null);
        List<SourceColumn> id = List.of(new SourceColumn("id", "int4", null, null, false, null, null, null));
        SourceTable a = new SourceTable("a", "orders", id, List.of("id"));
        SourceTable b = new SourceTable("b", "orders", id, List.of("id"));
        SourceTable c = new SourceTable("b", "lines", id, List.of("id"));

        assertThat(selection.targets(List.of(a, c))).containsEntry(a, new TargetTable("dw", "orders"))
                .containsEntry(c, new TargetTable("dw", "lines"));
        assertThatThrownBy(() -> selection.targets(List.of(a, c, b)))
                .hasMessageStartingWith("source tables a.orders and b.orders would both load into dw.orders");
    }
}
