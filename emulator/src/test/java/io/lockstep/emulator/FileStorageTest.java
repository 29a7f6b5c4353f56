package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.emulator.SrHttp.Resp;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code storage("h2:file:PATH")}: committed rows survive a restart of the emulator with the same DDL. */
class FileStorageTest {

    @TempDir
    Path dir;

    @Test
    void committedRowsSurviveARestartWithTheSameDdl() throws Exception {
        String storage = "h2:file:" + dir.resolve("emulator");
        try (StarRocksEmulator first = StarRocksEmulator.builder().storage(storage).ddl(TestSchema.DDL).build().start();
                SrHttp http = new SrHttp(first.feUrl())) {
            Resp ok = http.send("PUT", "/api/shop/orders/_stream_load",
                    h("Expect", "100-continue", "label", "file-1", "column_separator", ","), "801,kept,1\n", true);
            assertThat(ok.srStatus()).isEqualTo("Success");
        }

        try (StarRocksEmulator second = StarRocksEmulator.builder().storage(storage).ddl(TestSchema.DDL).build().start()) {
            assertThat(second.query("SELECT order_id, status FROM shop.orders").rows()).containsExactly(List.of(801L, "kept"));
        }
        try (StarRocksEmulator inMemory = StarRocksEmulator.builder().ddl(TestSchema.DDL).build().start()) {
            assertThat(inMemory.rowCount("shop", "orders")).isZero();
        }
    }

    @Test
    void aStorageValueOtherThanTheThreeIsRefused() {
        assertThatThrownBy(() -> StarRocksEmulator.builder().storage("h2:file:"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("storage must be h2, h2:file:PATH or none, got: h2:file:");
    }
}
