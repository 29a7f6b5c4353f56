package io.lockstep.core.client;

/**
 * One column of an HTTP SQL API reply ({@code {"meta":[{"name":..,"type":..}]}}).
 *
 * @param name the column label
 * @param type the type as the server prints it, e.g. {@code varchar}, {@code int(11)}, {@code bigint(20)},
 *             {@code datetime}
 */
public record SqlColumn(String name, String type) {
}
