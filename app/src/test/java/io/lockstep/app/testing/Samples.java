package io.lockstep.app.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reads the real sample files copied from apache/flink (see src/test/resources/samples/README.md). */
public final class Samples {

    public static final String MAXWELL = "samples/flink-json_maxwell-data.jsonl";
    public static final String DEBEZIUM_POSTGRES = "samples/flink-json_debezium-postgres-data-schema-exclude.jsonl";

    private Samples() {
    }

    /** @return the file's non-empty lines */
    public static List<String> lines(String resource) throws IOException {
        try (InputStream in = Samples.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing test resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
    }
}
