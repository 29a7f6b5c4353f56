package io.lockstep.flink.sink;

import io.lockstep.emulator.StarRocksEmulator;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples the emulator's committed data in one snapshot per query and records every sample in which the order
 * items are not exactly {@code items} per order, i.e. a source transaction visible in one table but not (wholly) in
 * the other. A sample taken while the {@link PacedOrderSource} waits at its next gate opens that gate, so every
 * batch is followed by at least one sample. Used from one polling thread.
 */
final class AtomicVisibilityReader {
    private final StarRocksEmulator sr;
    private final int items;
    private final String gatePrefix;
    private int nextGate;
    private int samples;
    private int samplesInProgress;
    private final List<String> violations = new ArrayList<>();

    AtomicVisibilityReader(StarRocksEmulator sr, int items, String gatePrefix) {
        this.sr = sr;
        this.items = items;
        this.gatePrefix = gatePrefix;
    }

    /** One sample; then lets the source emit its next batch if it is waiting for that. */
    void sample() {
        List<Object> row = sr.query("SELECT (SELECT COUNT(*) FROM shop.orders), "
                + "(SELECT COUNT(*) FROM shop.order_items)").rows().get(0);
        long orders = ((Number) row.get(0)).longValue();
        long orderItems = ((Number) row.get(1)).longValue();
        samples++;
        if (orders > 0) {
            samplesInProgress++;
        }
        if (orderItems != items * orders) {
            violations.add("sample " + samples + ": " + orders + " orders but " + orderItems + " order_items");
        }
        String gate = PacedOrderSource.gateName(gatePrefix, nextGate);
        if (Gates.reached(gate)) { // the source waits there: this sample fell between two batches
            Gates.open(gate);
            nextGate++;
        }
    }

    int samples() {
        return samples;
    }

    /** Samples that saw some committed data. */
    int samplesInProgress() {
        return samplesInProgress;
    }

    List<String> violations() {
        return violations;
    }
}
