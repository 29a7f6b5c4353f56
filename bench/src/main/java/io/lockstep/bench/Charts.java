package io.lockstep.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The report's PNG plots (JFreeChart, headless). */
final class Charts {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 500;

    private Charts() {
    }

    /**
     * Bars of p50, p99 and max freshness, next to the budget (commit interval + mini interval) and the goal (budget
     * + 100 ms), per run.
     *
     * @param rows run label → {p50, p99, max, budget, goal}, ms
     */
    static void freshness(Path png, Map<String, double[]> rows) throws IOException {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        String[] series = {"p50", "p99", "max", "budget (interval + mini interval)", "goal (budget + 100 ms)"};
        rows.forEach((run, values) -> {
            for (int i = 0; i < series.length; i++) {
                data.addValue(values[i], series[i], run);
            }
        });
        JFreeChart chart = ChartFactory.createBarChart("Freshness: source transaction emitted -> visible",
                "run (parallelism, commit interval)", "ms", data, PlotOrientation.VERTICAL, true, false, false);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }

    /**
     * Lines of throughput against row size, one per scenario.
     *
     * @param series scenario → points {rowBytes, value}
     */
    static void versusRowSize(Path png, String title, String yLabel, Map<String, List<double[]>> series)
            throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        series.forEach((name, points) -> {
            XYSeries s = new XYSeries(name);
            points.forEach(p -> s.add(p[0], p[1]));
            data.addSeries(s);
        });
        JFreeChart chart = ChartFactory.createXYLineChart(title, "row size (bytes)", yLabel, data,
                PlotOrientation.VERTICAL, true, false, false);
        chart.setBackgroundPaint(Color.WHITE);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            renderer.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(renderer);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }
}
