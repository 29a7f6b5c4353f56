package io.lockstep.emulator.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.catalog.CatalogSnapshot;
import io.lockstep.emulator.catalog.InMemoryCatalog;
import io.lockstep.emulator.load.RowChange;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publish the file store acknowledged survives a crash of the process: a child JVM commits a transaction through
 * {@link H2TableStore#inFile}, reports it, and is killed ({@code destroyForcibly}, SIGKILL on Linux) without a clean
 * close; the file, opened again, holds the rows and the catalog.
 */
class H2FileCrashDurabilityTest {
    private static final String COMMITTED = "COMMITTED";

    @TempDir
    Path dir;

    @Test
    void aPublishAcknowledgedBeforeAKillSurvivesIt() throws Exception {
        Path file = dir.resolve("emulator");
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process child = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", classPath, Child.class.getName(), file.toString())
                .redirectErrorStream(true).start();
        List<String> output = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                output.add(line);
                if (line.equals(COMMITTED)) {
                    break;
                }
            }
            child.destroyForcibly();
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(output).as("child output").contains(COMMITTED);

        try (H2TableStore reopened = H2TableStore.inFile(file)) {
            CatalogSnapshot stored = reopened.storedCatalog();
            assertThat(stored.tables()).hasSize(1);
            InMemoryCatalog catalog = new InMemoryCatalog();
            catalog.restore(stored);
            assertThat(reopened.query("SELECT order_id, status FROM shop.orders ORDER BY order_id").rows())
                    .containsExactly(List.of(1L, "first"), List.of(2L, "second"));
        }
    }

    /** The crashing emulator: commits one transaction, prints {@value #COMMITTED}, and waits to be killed. */
    public static final class Child {
        private Child() {
        }

        /** @param args the database file */
        public static void main(String[] args) throws Exception {
            InMemoryCatalog catalog = new InMemoryCatalog();
            H2TableStore store = H2TableStore.attachedTo(catalog, H2TableStore.inFile(Path.of(args[0])));
            catalog.execute("CREATE DATABASE shop; CREATE TABLE shop.orders (order_id BIGINT NOT NULL,"
                    + " status VARCHAR(32)) PRIMARY KEY (order_id);");
            store.publish(1, List.of(new TableChanges(catalog.table("shop", "orders").orElseThrow(), List.of(
                    new RowChange(new Object[] {1L, "first"}, false),
                    new RowChange(new Object[] {2L, "second"}, false)))));
            System.out.println(COMMITTED);
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}
