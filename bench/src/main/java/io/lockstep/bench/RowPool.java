package io.lockstep.bench;

/**
 * Pre-built JSON rows of one size, reused round-robin so that building rows costs the measured code nothing. Ids
 * repeat every {@code size} rows; the tables have primary keys and the {@code none} store counts every row.
 */
final class RowPool {
    private final byte[][] rows;
    private final long totalBytes;

    /** {@code size} rows of about {@code rowBytes} bytes each. */
    RowPool(int size, int rowBytes) {
        rows = new byte[size][];
        String filler = BenchTables.filler(rowBytes);
        long total = 0;
        for (int i = 0; i < size; i++) {
            rows[i] = BenchTables.row(i, i % 16, i, filler);
            total += rows[i].length;
        }
        totalBytes = total;
    }

    /** The row at {@code n} modulo the pool size. */
    byte[] get(long n) {
        return rows[(int) (n % rows.length)];
    }

    /** Average row length, bytes. */
    int averageBytes() {
        return (int) (totalBytes / rows.length);
    }
}
