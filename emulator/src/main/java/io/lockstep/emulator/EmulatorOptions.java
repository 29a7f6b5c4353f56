package io.lockstep.emulator;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.catalog.InMemoryCatalog;
import io.lockstep.emulator.storage.H2TableStore;
import io.lockstep.emulator.storage.KeepingNoneTableStore;
import io.lockstep.emulator.storage.NoneTableStore;
import io.lockstep.emulator.storage.TableStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options every emulator dialect shares (listeners, users, storage, clock, DDL, timers), with the setters of
 * both builders ({@link StarRocksEmulator.Builder}, {@link DorisEmulator.Builder}). Not thread-safe.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class EmulatorOptions<B extends EmulatorOptions<B>> {
    String host = "127.0.0.1";
    String advertisedHost;
    int fePort;
    int bePort;
    int queryPort;
    final Map<String, String> users = new LinkedHashMap<>(Map.of("root", ""));
    private boolean usersCustomized;
    String storage = "h2";
    /** With the {@code none} store: unqualified names of tables still stored (in H2) and queryable. */
    final java.util.Set<String> keptTables = new java.util.LinkedHashSet<>();
    /** Prefix of the file-backed storage value, {@code h2:file:PATH}. */
    static final String FILE_STORAGE = "h2:file:";
    Clock clock = Clock.systemUTC();
    final List<DdlSource> ddl = new ArrayList<>();
    long publishDelayMs = 1000;
    long sweepIntervalMs = 200;

    EmulatorOptions() {
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** Interface to bind; default 127.0.0.1. Also named in URLs unless {@link #advertisedHost} is set. */
    public B host(String value) {
        this.host = value;
        return self();
    }

    /**
     * Host named in the emulator's FE and BE URLs and in the FE's 307 {@code Location} (e.g. the machine's name
     * when binding 0.0.0.0). Default: the bind host, or 127.0.0.1 when the bind host is a wildcard (0.0.0.0, ::),
     * which no client can connect to from elsewhere.
     */
    public B advertisedHost(String value) {
        this.advertisedHost = value;
        return self();
    }

    String advertisedHost() {
        if (advertisedHost != null && !advertisedHost.isBlank()) {
            return advertisedHost;
        }
        boolean wildcard = "0.0.0.0".equals(host) || "::".equals(host) || "[::]".equals(host);
        return wildcard ? "127.0.0.1" : host;
    }

    /** FE port; 0 (default) = random. */
    public B fePort(int port) {
        this.fePort = port;
        return self();
    }

    /** BE port; 0 (default) = random. */
    public B bePort(int port) {
        this.bePort = port;
        return self();
    }

    /**
     * MySQL-protocol query port (the FE's {@code query_port}); 0 (default) = random. It serves the same users as the
     * HTTP ports.
     */
    public B queryPort(int port) {
        this.queryPort = port;
        return self();
    }

    /** Adds a user; the first call replaces the default {@code root} with empty password. */
    public B user(String name, String password) {
        if (!usersCustomized) {
            users.clear();
            usersCustomized = true;
        }
        users.put(name, password);
        return self();
    }

    /**
     * {@code h2} (default; in memory, SQL-queryable), {@code h2:file:PATH} (the same in an H2 file, so committed
     * rows survive a restart) or {@code none} (parse and count only).
     */
    public B storage(String value) {
        if (!"h2".equals(value) && !"none".equals(value) && !isFileStorage(value)) {
            throw new IllegalArgumentException("storage must be h2, h2:file:PATH or none, got: " + value);
        }
        this.storage = value;
        return self();
    }

    /**
     * With the {@code none} store: tables of these unqualified names (in any database) are still stored, in an
     * in-memory H2 store, and can be queried (e.g. a sink's exactly-once progress table while data rows are only
     * counted). Ignored by the H2 stores, which keep everything.
     */
    public B keepTables(String... tableNames) {
        keptTables.addAll(List.of(tableNames));
        return self();
    }

    /** The clock of every timer; give a {@link ManualClock} in tests. */
    public B clock(Clock value) {
        this.clock = value;
        return self();
    }

    /** DDL run at build time, in call order. */
    public B ddl(String statements) {
        ddl.add(new DdlSource(null, statements));
        return self();
    }

    /**
     * DDL read from a UTF-8 file; a {@link DdlException} from it at build time starts with the file name.
     *
     * @throws IOException if the file cannot be read
     */
    public B ddlFile(Path file) throws IOException {
        ddl.add(new DdlSource(file.toString(), Files.readString(file, StandardCharsets.UTF_8)));
        return self();
    }

    /** After a publish timeout, how long (clock ms) until the data becomes visible; default 1000. */
    public B publishDelayMs(long value) {
        this.publishDelayMs = value;
        return self();
    }

    /** Real-time interval of the timer sweeper in ms; default 200. */
    public B sweepIntervalMs(long value) {
        this.sweepIntervalMs = value;
        return self();
    }

    /** The catalog and the store of a new emulator, with the DDL applied. */
    record Data(Catalog catalog, TableStore store) {
    }

    /**
     * Creates the catalog and the store and runs the DDL. A file store first brings back the catalog it kept
     * ({@link InMemoryCatalog#restore}); the DDL then runs with {@link InMemoryCatalog#executeAtStart}'s rule for
     * tables it finds there.
     *
     * @throws DdlException naming the file (if any), the statement and the problem; the store is closed then
     */
    Data createData() throws DdlException {
        InMemoryCatalog catalog = new InMemoryCatalog();
        TableStore store;
        if ("none".equals(storage) && !keptTables.isEmpty()) {
            store = KeepingNoneTableStore.attachedTo(catalog, keptTables);
        } else if ("none".equals(storage)) {
            store = new NoneTableStore();
            catalog.addListener(store);
        } else if (isFileStorage(storage)) {
            H2TableStore file = H2TableStore.inFile(Path.of(storage.substring(FILE_STORAGE.length())));
            try {
                catalog.restore(file.storedCatalog());
            } catch (RuntimeException e) {
                file.close();
                throw e;
            }
            store = H2TableStore.attachedTo(catalog, file);
        } else {
            store = H2TableStore.attachedTo(catalog, new H2TableStore());
        }
        try {
            for (DdlSource source : ddl) {
                try {
                    catalog.executeAtStart(source.text());
                } catch (DdlException e) {
                    throw source.file() == null ? e : new DdlException(source.file() + ": " + e.getMessage());
                }
            }
        } catch (DdlException | RuntimeException e) {
            store.close();
            throw e;
        }
        return new Data(catalog, store);
    }

    /** DDL text and the file it came from (null for text given directly). */
    record DdlSource(String file, String text) {
    }

    /** @return whether {@code value} is {@code h2:file:PATH} with a non-empty path */
    static boolean isFileStorage(String value) {
        return value != null && value.startsWith(FILE_STORAGE) && value.length() > FILE_STORAGE.length();
    }
}
