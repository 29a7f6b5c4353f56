package io.lockstep.app.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which values of a sink row {@link BadValue#firstIn} checks. */
class BadValueTest {

    private static final Map<String, TargetColumn> ACCOUNTS = Map.of(
            "id", new TargetColumn("id", "bigint(20)", false),
            "owner", new TargetColumn("owner", "varchar(8)", false));

    @Test
    void aDeleteRowMayCarryNullInNotNullColumnsButItsValuesAreStillChecked() {
        assertThat(BadValue.firstIn("{\"id\":1,\"owner\":null,\"__op\":1}", ACCOUNTS)).isNull();
        assertThat(BadValue.firstIn("{\"id\":1,\"owner\":null,\"__op\":0}", ACCOUNTS))
                .isEqualTo(new BadValue("owner", "null", "is NULL, but the column is NOT NULL"));
        assertThat(BadValue.firstIn("{\"id\":\"x\",\"__op\":1}", ACCOUNTS).column()).isEqualTo("id");
    }

    @Test
    void keysTheTableLacksAndTheLoadKeysAreNotValues() {
        assertThat(BadValue.firstIn("{\"id\":1,\"owner\":\"o\",\"note\":\"" + "n".repeat(99) + "\","
                + "\"__DORIS_DELETE_SIGN__\":0}", ACCOUNTS)).isNull();
    }
}
