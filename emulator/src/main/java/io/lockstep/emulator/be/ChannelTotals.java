package io.lockstep.emulator.be;

/**
 * Counters of one table channel (or, summed, of one transaction): rows and bytes received so far.
 *
 * @param totalRows      every record read
 * @param loadedRows     rows that passed parsing, conversion and {@code where}
 * @param filteredRows   records rejected for data quality
 * @param unselectedRows records removed by {@code where}
 * @param loadBytes      body bytes received, all loads
 * @param loads          number of load requests accepted
 */
public record ChannelTotals(long totalRows, long loadedRows, long filteredRows, long unselectedRows,
                            long loadBytes, int loads) {
    public static final ChannelTotals EMPTY = new ChannelTotals(0, 0, 0, 0, 0, 0);

    public ChannelTotals plus(ChannelTotals o) {
        return new ChannelTotals(totalRows + o.totalRows, loadedRows + o.loadedRows, filteredRows + o.filteredRows,
                unselectedRows + o.unselectedRows, loadBytes + o.loadBytes, loads + o.loads);
    }

    /**
     * StarRocks' failure rule: filtered / (total − unselected) &gt; {@code max_filter_ratio}
     * (docs/protocol.md#data-formats-and-filtered-rows, BE {@code stream_load_executor.cpp}). With no rows the ratio is
     * 0.
     */
    public boolean tooManyFiltered(double maxFilterRatio) {
        long considered = totalRows - unselectedRows;
        if (considered <= 0 || filteredRows == 0) {
            return false;
        }
        return (double) filteredRows / considered > maxFilterRatio;
    }
}
