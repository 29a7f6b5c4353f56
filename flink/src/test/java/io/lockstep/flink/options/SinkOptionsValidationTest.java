package io.lockstep.flink.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One test per validation rule, asserting the full error text users see. */
class SinkOptionsValidationTest {

    private static StarRocksSinkOptions.Builder required() {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", "127.0.0.1:8030")
                .withProperty("database-name", "test")
                .withProperty("table-name", "orders")
                .withProperty("username", "root");
    }

    private static StarRocksSinkOptions.Builder multiTable() {
        return required()
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", "at-least-once")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", "1000");
    }

    private static AbstractThrowableAssert<?, ?> assertRejected(StarRocksSinkOptions.Builder builder, String optionKey) {
        return assertThatThrownBy(builder::build)
                .isInstanceOf(InvalidSinkOptionException.class)
                .satisfies(e -> assertThat(((InvalidSinkOptionException) e).getOptionKey()).isEqualTo(optionKey));
    }

    @ParameterizedTest
    @ValueSource(strings = {"load-url", "database-name", "table-name", "username"})
    void eachRequiredOptionIsNamedWhenMissing(String key) {
        StarRocksSinkOptions.Builder builder = StarRocksSinkOptions.builder();
        for (String other : new String[] {"load-url", "database-name", "table-name", "username"}) {
            if (!other.equals(key)) {
                builder.withProperty(other, other.equals("load-url") ? "fe:8030" : "x");
            }
        }

        assertRejected(builder, key).hasMessageStartingWith("Missing required sink option '" + key + "': ");
    }

    @Test
    void blankRequiredValueIsRejected() {
        assertRejected(required().withProperty("username", "  "), "username")
                .hasMessage("Invalid sink option 'username' = '  ': expected a non-blank value");
    }

    @Test
    void nullValueIsRejected() {
        assertRejected(required().withProperty("sink.semantic", null), "sink.semantic")
                .hasMessage("Invalid sink option 'sink.semantic': the value is null; omit the option to use its default");
    }

    @Test
    void commaInLoadUrlGetsADedicatedError() {
        assertRejected(required().withProperty("load-url", "fe1:8030,fe2:8030"), "load-url")
                .hasMessage("Invalid sink option 'load-url' = 'fe1:8030,fe2:8030': load-url 'fe1:8030,fe2:8030' "
                        + "contains ',': separate several FE addresses with ';' (e.g. fe1:8030;fe2:8030)");
    }

    /** load-url is parsed by the core's LoadUrls (the HTTP client's parser); the option wraps its message. */
    @Test
    void loadUrlWithoutPortIsRejected() {
        assertRejected(required().withProperty("load-url", "fe1:8030;fe2"), "load-url")
                .hasMessage("Invalid sink option 'load-url' = 'fe1:8030;fe2': load-url entry 'fe2' has no port: "
                        + "expected host:port with the FE HTTP port (e.g. fe2:8030)");
    }

    @Test
    void loadUrlWithPathOrSchemeOrCredentialsIsRejected() {
        assertRejected(required().withProperty("load-url", "fe1:8030/api"), "load-url")
                .hasMessageContaining("'fe1:8030/api' must be host:port only, without a path or query");
        assertRejected(required().withProperty("load-url", "ftp://fe1:8030"), "load-url")
                .hasMessageStartingWith("Invalid sink option 'load-url' = 'ftp://fe1:8030': load-url entry");
        assertRejected(required().withProperty("load-url", "http://root:secret@fe1:8030"), "load-url")
                .hasMessageContaining("carries user info").hasMessageNotContaining("secret@");
    }

    @Test
    void loadUrlsAreNormalizedToSchemeHostPort() {
        assertThat(required().withProperty("load-url", " fe1:8030 ;HTTPS://fe-2.example.com;").build().getLoadUrls())
                .containsExactly("http://fe1:8030", "https://fe-2.example.com:443");
    }

    @Test
    void labelPrefixWithForbiddenCharactersIsRejected() {
        assertRejected(required().withProperty("sink.label-prefix", "job.1"), "sink.label-prefix")
                .hasMessage("Invalid sink option 'sink.label-prefix' = 'job.1': expected 1 to 48 characters, only "
                        + "letters, digits, '_' and '-' (pattern ^[-\\w]*$)");
        assertRejected(required().withProperty("sink.label-prefix", "a".repeat(49)), "sink.label-prefix");
        assertRejected(required().withProperty("sink.label-prefix", ""), "sink.label-prefix");
        assertThat(required().withProperty("sink.label-prefix", "a".repeat(48)).build().getLabelPrefix()).hasSize(48);
        assertRejected(required().withProperty("sink.label-prefix", "jöb"), "sink.label-prefix");
        assertThat(required().withProperty("sink.label-prefix", "Job_1-a").build().getLabelPrefix()).isEqualTo("Job_1-a");
    }

    @Test
    void multiTableRequiresV2() {
        assertRejected(multiTable().withProperty("sink.version", "AUTO"), "sink.version")
                .hasMessage("Invalid sink option 'sink.version' = 'AUTO': 'sink.transaction.multi-table.enabled' = "
                        + "'true' requires 'sink.version' = 'V2' (the transaction stream load sink)");
        assertRejected(multiTable().withProperty("sink.version", "V1"), "sink.version")
                .hasMessageStartingWith("Invalid sink option 'sink.version' = 'V1'");
    }

    @Test
    void multiTableExactlyOnceNeedsAJobId() {
        assertRejected(multiTable().withProperty("sink.semantic", "exactly-once"), "sink.transaction.multi-table.job-id")
                .hasMessageStartingWith("Missing sink option 'sink.transaction.multi-table.job-id': 'sink.semantic' = "
                        + "'exactly-once' with 'sink.transaction.multi-table.enabled' = 'true'");
        assertRejected(multiTable().withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.transaction.multi-table.job-id", "a b"), "sink.transaction.multi-table.job-id");
        assertRejected(multiTable().withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.transaction.multi-table.job-id", "j".repeat(65)), "sink.transaction.multi-table.job-id");
    }

    @Test
    void multiTableExactlyOnceNeedsAFixedDatabase() {
        assertRejected(multiTable().withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.transaction.multi-table.job-id", "orders").withProperty("database-name", "*"),
                "database-name")
                .hasMessageStartingWith("Invalid sink option 'database-name' = '*' with 'sink.semantic' = 'exactly-once'");
    }

    @Test
    void multiTableExactlyOnceIsAcceptedWithJobIdAndFixedDatabase() {
        StarRocksSinkOptions options = multiTable().withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.transaction.multi-table.job-id", "orders-to-shop")
                .withProperty("database-name", "shop").withProperty("table-name", "*").build();
        assertThat(options.getMultiTableJobId()).isEqualTo("orders-to-shop");
        assertThat(options.getMultiTableProgressTable()).isEqualTo("lockstep_progress");
        assertRejected(multiTable().withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.transaction.multi-table.job-id", "orders").withProperty("database-name", "shop")
                .withProperty("sink.transaction.multi-table.progress-table", "shop.progress"),
                "sink.transaction.multi-table.progress-table");
    }

    @Test
    void multiTableRejectsMergeCommit() {
        assertRejected(multiTable().withProperty("sink.properties.enable_merge_commit", "true"),
                "sink.properties.enable_merge_commit")
                .hasMessage("Invalid sink option 'sink.properties.enable_merge_commit' = 'true': merge commit cannot be "
                        + "combined with 'sink.transaction.multi-table.enabled' = 'true' (it bypasses the per-partition "
                        + "transaction boundaries multi-table mode commits at); expected 'false' or no value");
    }

    @Test
    void mergeCommitIsRejectedInSingleTableModeToo() {
        assertRejected(required().withProperty("sink.properties.ENABLE_MERGE_COMMIT", "True"),
                "sink.properties.enable_merge_commit")
                .hasMessage("Invalid sink option 'sink.properties.enable_merge_commit' = 'true': merge commit is not "
                        + "supported by Lockstep (transaction stream load ignores it); expected 'false' or no value");
    }

    @Test
    void timeoutMustExceedTheCommitInterval() {
        assertRejected(required().withProperty("sink.buffer-flush.interval-ms", "5000")
                .withProperty("sink.properties.timeout", "5"), "sink.properties.timeout")
                .hasMessage("Invalid sink option 'sink.properties.timeout' = '5': the transaction timeout (seconds) must "
                        + "exceed the commit interval 'sink.buffer-flush.interval-ms' = '5000' ms, or the server aborts "
                        + "transactions before they are committed; expected at least 6 seconds, or a shorter interval");
        assertThat(required().withProperty("sink.buffer-flush.interval-ms", "5000")
                .withProperty("sink.properties.timeout", "6").build().getStreamLoadTimeoutSeconds()).isEqualTo(6);
    }

    @Test
    void defaultTimeoutIsCheckedAgainstALongInterval() {
        assertRejected(required().withProperty("sink.buffer-flush.interval-ms", "600000"), "sink.properties.timeout")
                .hasMessageStartingWith("Invalid sink option 'sink.properties.timeout' = '600' (default): the transaction "
                        + "timeout (seconds) must exceed the commit interval 'sink.buffer-flush.interval-ms' = '600000' ms");
    }

    @Test
    void exactlyOnceDoesNotCompareTimeoutWithTheFlushInterval() {
        StarRocksSinkOptions options = required()
                .withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.buffer-flush.interval-ms", "600000")
                .build();

        assertThat(options.getBufferFlushIntervalMs()).isEqualTo(600_000L);
    }

    @Test
    void malformedNumbersNameTheOptionValueAndRange() {
        assertRejected(required().withProperty("sink.max-retries", "many"), "sink.max-retries")
                .hasMessage("Invalid sink option 'sink.max-retries' = 'many': expected an integer in [0, 1000]");
        assertRejected(required().withProperty("sink.max-retries", "1001"), "sink.max-retries")
                .hasMessage("Invalid sink option 'sink.max-retries' = '1001': expected an integer in [0, 1000]");
        assertRejected(required().withProperty("sink.buffer-flush.interval-ms", "50"), "sink.buffer-flush.interval-ms")
                .hasMessage("Invalid sink option 'sink.buffer-flush.interval-ms' = '50': expected a whole number in "
                        + "[100, 3600000]");
        assertRejected(required().withProperty("sink.transaction.multi-table.buffer-size", "0"),
                "sink.transaction.multi-table.buffer-size")
                .hasMessage("Invalid sink option 'sink.transaction.multi-table.buffer-size' = '0': expected a whole "
                        + "number in [1, ...]");
    }

    @Test
    void malformedBooleansAndEnumsAreRejected() {
        assertRejected(required().withProperty("sink.transaction.multi-table.enabled", "yes"),
                "sink.transaction.multi-table.enabled")
                .hasMessage("Invalid sink option 'sink.transaction.multi-table.enabled' = 'yes': expected 'true' or 'false'");
        assertRejected(required().withProperty("sink.semantic", "at-most-once"), "sink.semantic")
                .hasMessage("Invalid sink option 'sink.semantic' = 'at-most-once': expected one of 'at-least-once', "
                        + "'exactly-once'");
        assertRejected(required().withProperty("sink.version", "V3"), "sink.version")
                .hasMessage("Invalid sink option 'sink.version' = 'V3': expected one of 'AUTO', 'V1', 'V2'");
    }

    @Test
    void unknownKeyIsRejectedWithTheClosestKnownKey() {
        assertRejected(required().withProperty("sink.semantics", "exactly-once"), "sink.semantics")
                .hasMessage("Unknown sink option 'sink.semantics'; did you mean 'sink.semantic'? Known options are "
                        + "listed in docs/options.md; stream load headers go under 'sink.properties.<header>'");
        assertRejected(required().withProperty("flavour", "vanilla"), "flavour")
                .hasMessage("Unknown sink option 'flavour'. Known options are listed in docs/options.md; stream load "
                        + "headers go under 'sink.properties.<header>'");
    }

    @Test
    void unknownKeyIsReportedBeforeAMissingRequiredOne() {
        StarRocksSinkOptions.Builder builder = StarRocksSinkOptions.builder()
                .withProperty("load-url", "fe:8030")
                .withProperty("database_name", "test")
                .withProperty("table-name", "orders")
                .withProperty("username", "root");

        assertRejected(builder, "database_name").hasMessageContaining("did you mean 'database-name'?");
    }

    @Test
    void connectorOptionsLockstepDoesNotImplementGetADedicatedError() {
        assertRejected(required().withProperty("sink.buffer-flush.max-rows", "500000"), "sink.buffer-flush.max-rows")
                .hasMessage("Sink option 'sink.buffer-flush.max-rows' of the StarRocks connector is not supported by "
                        + "Lockstep (flushes are triggered by bytes and time only); remove it");
    }

    @Test
    void headersTheSinkSetsItselfAreRejected() {
        assertRejected(required().withProperty("sink.properties.Label", "mine"), "sink.properties.label")
                .hasMessage("Invalid sink option 'sink.properties.label': the stream load header 'label' is set by the "
                        + "sink itself (labels, routing, authentication); remove the option");
        assertRejected(required().withProperty("sink.properties.", "x"), "sink.properties.")
                .hasMessage("Invalid sink option 'sink.properties.': expected a stream load header name after "
                        + "'sink.properties.'");
    }

    @Test
    void headerSetTwiceInDifferentCaseIsRejected() {
        assertRejected(required().withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.FORMAT", "csv"), "sink.properties.format")
                .hasMessage("Sink option 'sink.properties.format' is set twice with different letter case; stream load "
                        + "header names are case-insensitive, keep one of them");
    }

    @Test
    void passwordNeverAppearsInErrors() {
        assertThat(SinkOptionDefinitions.PASSWORD.isSecret()).isTrue();
        assertThat(StarRocksSinkOptions.builder().withProperty("password", "hunter2")
                .withProperty("load-url", "bad,url").withProperty("database-name", "d")
                .withProperty("table-name", "t").withProperty("username", "u"))
                .satisfies(b -> assertThatThrownBy(b::build).message().doesNotContain("hunter2"));
        // The password accepts any text, so prove masking through the parse path of a secret option.
        SinkOption<Integer> secretNumber = SinkOption.intOption("test.secret", 0, 1).secret().description("d");
        assertThatThrownBy(() -> secretNumber.parse("hunter2"))
                .hasMessage("Invalid sink option 'test.secret' = '***': expected an integer in [0, 1]");
    }

    @Test
    void theSeedsMultiTableOptionsAreValid() {
        StarRocksSinkOptions options = multiTable()
                .withProperty("jdbc-url", "jdbc:mysql://127.0.0.1:9030")
                .withProperty("password", "")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true")
                .build();

        assertThat(options.isMultiTableTransactionEnabled()).isTrue();
        assertThat(options.getSinkVersion()).isEqualTo(SinkVersion.V2);
        assertThat(options.getBufferFlushIntervalMs()).isEqualTo(1000L);
    }

    @Test
    void editDistanceCountsSingleCharacterEdits() {
        assertThat(SinkOptionsValidator.editDistance("sink.semantic", "sink.semantic")).isZero();
        assertThat(SinkOptionsValidator.editDistance("sink.semantics", "sink.semantic")).isEqualTo(1);
        assertThat(SinkOptionsValidator.editDistance("database_name", "database-name")).isEqualTo(1);
        assertThat(SinkOptionsValidator.editDistance("abc", "")).isEqualTo(3);
    }

    /** The SinkFunction entry point ({@code SinkFunctionFactory}) takes options built here. */
    @ParameterizedTest
    @ValueSource(strings = {"gzip", "BZIP2", "lz4_frame", "Zstd"})
    void starRocksReadsTheCompressionItImplements(String value) {
        required().withProperty("sink.properties.compression", value).build();
    }

    @Test
    void aCompressionTheClientDoesNotImplementOrTheOtherTargetsHeaderIsRefusedNamingTheOption() {
        assertRejected(required().withProperty("sink.properties.compression", "snappy"), "sink.properties.compression")
                .hasMessage("Invalid sink option 'sink.properties.compression' = 'snappy': compression = 'snappy' is "
                        + "not one Lockstep implements; expected one of 'gzip', 'bzip2', 'lz4_frame', 'zstd'");
        assertRejected(required().withProperty("sink.properties.Content-Encoding", "gzip"),
                "sink.properties.content-encoding")
                .hasMessageContaining("set sink.properties.compression (gzip, bzip2, lz4_frame, zstd) instead");
        assertRejected(required().withProperty("sink.properties.compress_type", "gz"), "sink.properties.compress_type")
                .hasMessageContaining("compress_type is Doris' header; StarRocks reads sink.properties.compression");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "bzip2", "LZ4", "lz4_frame", "deflate", "zstd"})
    void aCompressedCsvFormatNameIsRefusedPointingToTheCompressionOption(String format) {
        assertRejected(required().withProperty("sink.properties.format", format), "sink.properties.format")
                .hasMessage("Invalid sink option 'sink.properties.format' = '" + format + "': '" + format
                        + "' is StarRocks' header for a compressed CSV body, which the sink sets itself: set "
                        + "'csv' with sink.properties.compression (gzip, bzip2, lz4_frame, zstd); expected one of "
                        + "'csv', 'json'");
    }

    @Test
    void aTablesCompressionPropertyIsCheckedAgainstTheTarget() {
        StarRocksSinkOptions options = required().withProperty("sink.properties.format", "json").build();
        assertThatThrownBy(() -> options.addTableProperties(
                com.starrocks.data.load.stream.properties.StreamLoadTableProperties.builder().database("test")
                        .table("orders").addProperty("compress_type", "lz4").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageStartingWith("Invalid sink option 'sink.properties.compress_type' = 'lz4' with "
                        + "'sink.target' = 'starrocks'");
    }
}
