package io.lockstep.app.chaos;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Counts, per scenario and fault class, the faults injected, those that provably hit (the server or the sink
 * took them), the job restarts that followed them, and the faults after which the job went on (a checkpoint
 * beyond the fault's position completed). Prints the suite's summary table. Used by the test thread only.
 */
final class FaultLedger {
    /** Counters of one (scenario, class) cell. */
    static final class Cell {
        int injected;
        int hit;
        int restarts;
        int recovered;
    }

    private final Map<String, Map<FaultClass, Cell>> scenarios = new LinkedHashMap<>();

    Cell cell(String scenario, FaultClass fault) {
        return scenarios.computeIfAbsent(scenario, s -> new EnumMap<>(FaultClass.class))
                .computeIfAbsent(fault, f -> new Cell());
    }

    /** @return faults injected in a scenario, or in all of them with {@code null} */
    int injected(String scenario) {
        int total = 0;
        for (Map.Entry<String, Map<FaultClass, Cell>> s : scenarios.entrySet()) {
            if (scenario == null || s.getKey().equals(scenario)) {
                for (Cell c : s.getValue().values()) {
                    total += c.injected;
                }
            }
        }
        return total;
    }

    /** @return the summary table: one row per scenario and class, then totals */
    String table(Map<String, String> scenarioOutcomes) {
        StringBuilder out = new StringBuilder();
        String format = "| %-18s | %-45s | %8s | %4s | %12s | %9s |%n";
        out.append(String.format(Locale.ROOT, format, "scenario", "fault class", "injected", "hit",
                "job restarts", "recovered"));
        out.append(String.format(Locale.ROOT, format, "---", "---", "---", "---", "---", "---"));
        int[] totals = new int[4];
        scenarios.forEach((scenario, cells) -> cells.forEach((fault, c) -> {
            // Mixed rounds inject several classes at once: their restarts are given per scenario, below.
            Object restarts = scenario.endsWith("/mixed") ? "-" : c.restarts;
            out.append(String.format(Locale.ROOT, format, scenario, fault.title(), c.injected, c.hit, restarts,
                    c.recovered));
            totals[0] += c.injected;
            totals[1] += c.hit;
            totals[2] += c.restarts;
            totals[3] += c.recovered;
        }));
        out.append(String.format(Locale.ROOT, format, "all", "total", totals[0], totals[1], totals[2], totals[3]));
        scenarioOutcomes.forEach((scenario, outcome) -> out.append(scenario).append(": ").append(outcome)
                .append(System.lineSeparator()));
        return out.toString();
    }
}
