package io.lockstep.emulator.catalog;

/**
 * A database known to the {@link Catalog}.
 *
 * @param name database name
 * @param id   numeric id; StarRocks names databases by id in some errors, e.g.
 *             "current running txns on db {id} is {n}, larger than limit {limit}"
 */
public record DatabaseInfo(String name, long id) {
}
