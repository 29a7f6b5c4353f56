package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorLogExcerptTest {

    @Test
    void sanitizeCutsEachLineAtItsRow() {
        String log = "Error: Value count does not match column count. Expect 3, but got 2. Row: 7,bob@example.com\n"
                + "Reason: column(dt) value is incorrect. src line: [2024-13-01\tx];\n"
                + "Error: no row on this line";

        String sanitized = ErrorLogExcerpt.sanitize(log);

        assertThat(sanitized).isEqualTo(
                "Error: Value count does not match column count. Expect 3, but got 2. Row: " + ErrorLogExcerpt.REDACTED
                        + "\nReason: column(dt) value is incorrect. src line: " + ErrorLogExcerpt.REDACTED
                        + "\nError: no row on this line");
    }
}
