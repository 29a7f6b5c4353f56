package io.lockstep.app.demo;

/**
 * Settings of the shop workload. The same settings (seed included) always give the same transactions.
 *
 * @param seed random seed
 * @param partitions Kafka partitions of the topic; a transaction goes to the partition of its customer
 *     (&gt; 0)
 * @param customers number of distinct customers (ids 1..customers); a customer's first transaction
 *     creates it (&gt; 0)
 * @param bulkOrderMinItems fewest items of a bulk order (&gt; 0)
 * @param bulkOrderMaxItems most items of a bulk order (&gt;= {@code bulkOrderMinItems})
 */
public record ShopWorkload(long seed, int partitions, int customers, int bulkOrderMinItems, int bulkOrderMaxItems) {

    /** Default number of customers. */
    public static final int DEFAULT_CUSTOMERS = 500;
    /** Default fewest items of a bulk order. */
    public static final int DEFAULT_BULK_MIN_ITEMS = 100;
    /** Default most items of a bulk order. */
    public static final int DEFAULT_BULK_MAX_ITEMS = 400;

    /** @throws IllegalArgumentException naming the setting that is out of range */
    public ShopWorkload {
        if (partitions <= 0) {
            throw new IllegalArgumentException("partitions must be positive, got " + partitions);
        }
        if (customers <= 0) {
            throw new IllegalArgumentException("customers must be positive, got " + customers);
        }
        if (bulkOrderMinItems <= 0 || bulkOrderMaxItems < bulkOrderMinItems) {
            throw new IllegalArgumentException("bulk order size must satisfy 0 < min <= max, got min "
                    + bulkOrderMinItems + " max " + bulkOrderMaxItems);
        }
    }

    /**
     * @param seed random seed
     * @param partitions Kafka partitions of the topic
     * @return 500 customers, bulk orders of 100–400 items
     */
    public static ShopWorkload of(long seed, int partitions) {
        return new ShopWorkload(seed, partitions, DEFAULT_CUSTOMERS, DEFAULT_BULK_MIN_ITEMS, DEFAULT_BULK_MAX_ITEMS);
    }
}
