package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FailureClassTest {

    @Test
    void retriableClassesAreRecognised() {
        assertThat(FailureClass.classify("TXN_IN_PROCESSING", "")).isEqualTo(FailureClass.TXN_IN_PROCESSING);
        assertThat(FailureClass.classify("FAILED", "Transaction is in processing"))
                .isEqualTo(FailureClass.TXN_IN_PROCESSING);
        assertThat(FailureClass.classify("ANALYSIS_ERROR", "current running txns on db 10 is 1000, larger than limit 1000"))
                .isEqualTo(FailureClass.RUNNING_TXN_LIMIT);
        assertThat(FailureClass.classify("FAILED", "get database write lock timeout")).isEqualTo(FailureClass.LOCK_TIMEOUT);
        assertThat(FailureClass.classify("FAILED", "Timeout to acquire table lock")).isEqualTo(FailureClass.LOCK_TIMEOUT);
    }

    @Test
    void dataErrorsAndAccessDeniedAreTerminal() {
        assertThat(FailureClass.classify("Fail", "too many filtered rows")).isEqualTo(FailureClass.DATA_ERROR);
        assertThat(FailureClass.classify("INTERNAL_ERROR", "Failed to parse json")).isEqualTo(FailureClass.DATA_ERROR);
        assertThat(FailureClass.classify("INTERNAL_ERROR", "load request not equal last."))
                .isEqualTo(FailureClass.DATA_ERROR);
        assertThat(FailureClass.classify("FAILED", "Failed to find table orders in db shop"))
                .isEqualTo(FailureClass.DATA_ERROR);
        assertThat(FailureClass.classify("FAILED", "Access denied for user root")).isEqualTo(FailureClass.ACCESS_DENIED);
        assertThat(FailureClass.DATA_ERROR.retriable()).isFalse();
        assertThat(FailureClass.ACCESS_DENIED.retriable()).isFalse();
        assertThat(FailureClass.OTHER.retriable()).isFalse();
    }

    @Test
    void anUnknownDatabaseAtBeginIsADataErrorButAnUnknownLabelIsNot() {
        assertThat(FailureClass.classify("FAILED", "Database[nodb] does not exist.")).isEqualTo(FailureClass.DATA_ERROR);
        assertThat(FailureClass.classify("FAILED", "class com.starrocks.common.StarRocksException: stream load task "
                + "t-0-r1-m3 does not exist")).isEqualTo(FailureClass.OTHER);
    }

    @Test
    void publishTimeoutIsNotMistakenForALockTimeout() {
        assertThat(FailureClass.classify("FAILED", "publish timeout: 20000")).isEqualTo(FailureClass.OTHER);
        assertThat(FailureClass.classify("ABORTED", "transaction is aborted by timeout 600 seconds."))
                .isEqualTo(FailureClass.OTHER);
    }
}
