package io.lockstep.app.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableRouterTest {

    @Test
    void withoutAMapEveryTableLoadsIntoTheSameNameInTheTargetDatabase() {
        TableRouter router = TableRouter.parse(null, "dw", UnknownTableMode.FAIL);

        assertThat(router.route("shop", "orders")).isEqualTo(new TargetTable("dw", "orders"));
        assertThat(router.route("inventory", "products")).isEqualTo(new TargetTable("dw", "products"));
    }

    @Test
    void mapRoutesEachSourceTableToItsTarget() {
        TableRouter router = TableRouter.parse(" shop.orders=dw.orders_v2 , shop.order_items=dw.items", "ignored",
                UnknownTableMode.FAIL);

        assertThat(router.route("shop", "orders")).isEqualTo(new TargetTable("dw", "orders_v2"));
        assertThat(router.route("shop", "order_items")).isEqualTo(new TargetTable("dw", "items"));
    }

    @Test
    void unknownTableFailsNamingItAndTheMappedTables() {
        TableRouter router = TableRouter.parse("shop.orders=dw.orders,shop.payments=dw.payments", null,
                UnknownTableMode.FAIL);

        assertThatThrownBy(() -> router.route("shop", "audit_log"))
                .isInstanceOf(UnknownTableException.class)
                .hasMessage("source table 'shop.audit_log' is not in the table map (mapped: shop.orders, "
                        + "shop.payments); map it, or skip unknown tables");
    }

    @Test
    void unknownTableIsSkippedWhenConfigured() {
        TableRouter router = TableRouter.parse("shop.orders=dw.orders", null, UnknownTableMode.SKIP);

        assertThat(router.route("shop", "audit_log")).isNull();
        assertThat(router.route("shop", "orders")).isEqualTo(new TargetTable("dw", "orders"));
        assertThat(router.unknownTableMode()).isEqualTo(UnknownTableMode.SKIP);
    }

    @Test
    void invalidSpecificationsAreRejectedByEntry() {
        assertThatThrownBy(() -> TableRouter.parse("shop.orders=orders", "dw", UnknownTableMode.FAIL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid table map entry 'shop.orders=orders': expected src_db.src_table=target_db.target_table");
        assertThatThrownBy(() -> TableRouter.parse("shop.orders=dw.a,shop.orders=dw.b", "dw", UnknownTableMode.FAIL))
                .hasMessage("table map names source table 'shop.orders' twice");
        assertThatThrownBy(() -> TableRouter.parse("a.b=c.d=e.f", "dw", UnknownTableMode.FAIL))
                .hasMessage("invalid table map entry 'a.b=c.d=e.f': expected src_db.src_table=target_db.target_table");
        assertThatThrownBy(() -> TableRouter.parse("", " ", UnknownTableMode.FAIL))
                .hasMessage("a target database is required when no table map is given");
    }

    @Test
    void withTheTargetsTableListATableTheTargetLacksIsUnknownWithOrWithoutAMap() {
        TargetTables tables = new TargetTables(Map.of("dw", List.of("orders", "payments")));
        TableRouter sameName = TableRouter.parse(null, "dw", UnknownTableMode.FAIL).withTargetTables(tables);
        TableRouter mapped = TableRouter.parse("shop.orders=dw.orders,shop.items=dw.items,shop.log=ops.log", null,
                UnknownTableMode.FAIL).withTargetTables(tables);
        TableRouter skipping = TableRouter.parse(null, "dw", UnknownTableMode.SKIP).withTargetTables(tables);

        assertThat(sameName.route("shop", "orders")).isEqualTo(new TargetTable("dw", "orders"));
        assertThatThrownBy(() -> sameName.route("shop", "ledger")).isInstanceOf(UnknownTableException.class)
                .hasMessage("target table 'dw.ledger' of source table 'shop.ledger' does not exist; create it, or skip "
                        + "unknown tables (--unknown-table skip)");
        assertThatThrownBy(() -> mapped.route("shop", "items")).isInstanceOf(UnknownTableException.class)
                .hasMessageStartingWith("target table 'dw.items' of source table 'shop.items' does not exist");
        assertThat(mapped.route("shop", "log")).as("database not listed: not checked")
                .isEqualTo(new TargetTable("ops", "log"));
        assertThat(skipping.route("shop", "ledger")).isNull();
        assertThat(skipping.route("shop", "payments")).isEqualTo(new TargetTable("dw", "payments"));
    }

    /** A naming as --create-tables gives one: tables of schema "shop" only, prefixed "s_", into "dw". */
    private static final TargetNaming SHOP_ONLY = new TargetNaming() {
        @Override
        public TargetTable target(String sourceDatabase, String sourceTable) {
            return sourceDatabase.equals("shop") ? new TargetTable("dw", "s_" + sourceTable) : null;
        }

        @Override
        public String describeSelection() {
            return "--include-tables shop\\..*";
        }
    };

    @Test
    void aNamingNamesEachTargetAndItsExcludedTablesAreSkippedWhateverTheUnknownTableMode() {
        TableRouter router = TableRouter.parse(null, "dw", UnknownTableMode.FAIL).withNaming(SHOP_ONLY);

        assertThat(router.route("shop", "orders")).isEqualTo(new TargetTable("dw", "s_orders"));
        assertThat(router.route("audit", "log")).as("excluded: skipped even with fail").isNull();
        assertThat(router.unknownReason("audit", "log")).isEqualTo("source table 'audit.log' is not selected "
                + "(--include-tables shop\\..*)");
        assertThat(router.notLoadedReason("audit", "log")).as("its schema changes are ignored").isNotNull();
        assertThat(router.notLoadedReason("shop", "orders")).isNull();
    }

    @Test
    void aNamingCannotBeCombinedWithATableMap() {
        TableRouter mapped = TableRouter.parse("shop.orders=dw.orders", null, UnknownTableMode.FAIL);

        assertThatThrownBy(() -> mapped.withNaming(SHOP_ONLY)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be combined");
    }
}
