package io.lockstep.app.demo;

import io.lockstep.app.demo.ShopChange.Op;
import io.lockstep.app.demo.ShopSchema.Table;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Generates the demo's workload: realistic shop transactions in Debezium format (see
 * {@link DebeziumShopEncoder}), deterministic for a {@link ShopWorkload#seed()}, and keeps the expected
 * state of every table after them.
 *
 * <p>Each call of {@link #next()} picks a customer (uniformly among {@link ShopWorkload#customers()}) and a
 * {@link ShopTransactionKind} (weights: new order 30, checkout 10, payment 20, remove item 8, cancel order
 * 8, refund 4, customer update 18, bulk order 2; a kind with nothing to act on, e.g. a payment without an
 * open order, becomes a new order; a new customer's first transaction is a new order or a checkout that
 * also creates the customer). Every row a transaction touches belongs to that customer, and the whole
 * transaction goes to the customer's partition ({@code floorMod(hash(customer_id), partitions)}, as a
 * connector with a partition-by-field routing, e.g. Debezium's {@code PartitionRouting} SMT on
 * {@code customer_id}, would place it). So one partition's order is enough to keep every row's history in
 * order. Every transaction keeps the {@link ShopInvariants}; the generator checks its own state only in
 * tests.
 *
 * <p>Row values are deterministic too: ids count up, DATETIME columns are 2026-01-01 00:00:00 plus the
 * transaction's sequence number in seconds. Only the Debezium {@code ts_ms} fields come from the injected
 * clock (the source commit time, for freshness measurements).
 *
 * <p>Not thread safe: one thread calls {@link #next()}; others read {@link #expectedState()} only after
 * that thread is done (e.g. after joining it), or take copies on it.
 */
public final class ShopTransactionGenerator {

    private static final LocalDateTime START = LocalDateTime.of(2026, 1, 1, 0, 0);
    private static final long SERVER_ID = 1001;
    private static final String[] FIRST_NAMES = {"Ada", "Ben", "Chloe", "Dev", "Elif", "Farid", "Grace", "Hugo",
        "Ines", "Jun", "Kofi", "Lena", "Mateo", "Nora", "Omar", "Priya"};
    private static final String[] LAST_NAMES = {"Almeida", "Becker", "Chen", "Dubois", "Eriksen", "Fischer",
        "Garcia", "Haddad", "Ivanova", "Jensen", "Kim", "Lopez", "Moreau", "Novak"};
    private static final String[] PAYMENT_METHODS = {"CARD", "PAYPAL", "BANK_TRANSFER", "VOUCHER"};

    private final ShopWorkload workload;
    private final Clock clock;
    private final Random random;
    private final String serverUuid;
    private final DebeziumShopEncoder encoder = new DebeziumShopEncoder(SERVER_ID);
    private final ShopState state = new ShopState();
    /** Customer id to its orders with status NEW (payable, cancellable). */
    private final Map<Long, TreeSet<Long>> openOrders = new TreeMap<>();
    /** Customer id to its orders with status PAID (refundable). */
    private final Map<Long, TreeSet<Long>> paidOrders = new TreeMap<>();
    /** Order id to the line numbers of its items. */
    private final Map<Long, TreeSet<Integer>> orderLines = new TreeMap<>();
    private long sequence;
    private long nextOrderId = 1;
    private long nextPaymentId = 1;

    /**
     * @param workload seed, partitions and sizes
     * @param clock gives the source commit time ({@code ts_ms}) of each transaction
     */
    public ShopTransactionGenerator(ShopWorkload workload, Clock clock) {
        this.workload = Objects.requireNonNull(workload, "workload");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = new Random(workload.seed());
        this.serverUuid = UUID.nameUUIDFromBytes(("lockstep-shop-" + workload.seed())
                .getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** @return the workload settings */
    public ShopWorkload workload() {
        return workload;
    }

    /** @return how many transactions {@link #next()} has made */
    public long generatedTransactions() {
        return sequence;
    }

    /** @return a copy of the expected state of all tables after every transaction made so far */
    public ShopState expectedState() {
        return state.copy();
    }

    /** @return the live expected state (read-only by contract), for checks after each transaction */
    ShopState liveState() {
        return state;
    }

    /**
     * @param customerId a customer id
     * @return the Kafka partition of the customer's transactions
     */
    public int partitionOf(long customerId) {
        return Math.floorMod(Long.hashCode(customerId * 0x9E3779B97F4A7C15L), workload.partitions());
    }

    /**
     * Makes the next transaction and applies it to the expected state.
     *
     * @return the transaction with its Debezium messages
     */
    public ShopTransaction next() {
        sequence++;
        long customerId = 1 + random.nextInt(workload.customers());
        LocalDateTime now = START.plusSeconds(sequence);
        List<ShopChange> changes = new ArrayList<>();
        ShopTransactionKind kind = chooseKind(customerId);
        switch (kind) {
            case NEW_ORDER -> newOrder(changes, customerId, now, 1 + random.nextInt(5), false);
            case CHECKOUT -> newOrder(changes, customerId, now, 1 + random.nextInt(5), true);
            case BULK_ORDER -> newOrder(changes, customerId, now, workload.bulkOrderMinItems()
                    + random.nextInt(workload.bulkOrderMaxItems() - workload.bulkOrderMinItems() + 1), false);
            case PAYMENT -> payment(changes, customerId, now);
            case REMOVE_ITEM -> removeItem(changes, customerId);
            case CANCEL_ORDER -> cancelOrder(changes, customerId);
            case REFUND -> refund(changes, customerId, now);
            case CUSTOMER_UPDATE -> customerUpdate(changes, customerId, now);
            default -> throw new IllegalStateException("unhandled kind " + kind);
        }
        String id = serverUuid + ":" + sequence;
        long thread = 10 + customerId % 16;
        long commitTimeMs = clock.millis();
        return new ShopTransaction(sequence, id, kind, customerId, partitionOf(customerId), commitTimeMs,
                Collections.unmodifiableList(changes), encoder.encode(id, commitTimeMs, thread, changes));
    }

    private ShopTransactionKind chooseKind(long customerId) {
        if (state.get(ShopSchema.CUSTOMERS, List.of(customerId)) == null) {
            return random.nextInt(4) == 0 ? ShopTransactionKind.CHECKOUT : ShopTransactionKind.NEW_ORDER;
        }
        int roll = random.nextInt(100);
        ShopTransactionKind kind;
        if (roll < 30) {
            kind = ShopTransactionKind.NEW_ORDER;
        } else if (roll < 40) {
            kind = ShopTransactionKind.CHECKOUT;
        } else if (roll < 60) {
            kind = ShopTransactionKind.PAYMENT;
        } else if (roll < 68) {
            kind = ShopTransactionKind.REMOVE_ITEM;
        } else if (roll < 76) {
            kind = ShopTransactionKind.CANCEL_ORDER;
        } else if (roll < 80) {
            kind = ShopTransactionKind.REFUND;
        } else if (roll < 98) {
            kind = ShopTransactionKind.CUSTOMER_UPDATE;
        } else {
            kind = ShopTransactionKind.BULK_ORDER;
        }
        boolean possible = switch (kind) {
            case PAYMENT, CANCEL_ORDER -> !ordersOf(openOrders, customerId).isEmpty();
            case REMOVE_ITEM -> !ordersWithSeveralItems(customerId).isEmpty();
            case REFUND -> !ordersOf(paidOrders, customerId).isEmpty();
            default -> true;
        };
        return possible ? kind : ShopTransactionKind.NEW_ORDER;
    }

    private void newOrder(List<ShopChange> changes, long customerId, LocalDateTime now, int items, boolean pay) {
        Map<String, Object> customer = state.get(ShopSchema.CUSTOMERS, List.of(customerId));
        if (customer == null) {
            String first = FIRST_NAMES[random.nextInt(FIRST_NAMES.length)];
            String last = LAST_NAMES[random.nextInt(LAST_NAMES.length)];
            create(changes, ShopSchema.CUSTOMERS, Map.of("customer_id", customerId, "name", first + " " + last,
                    "email", email(first, last, customerId, 0), "updated_at", now));
        } else if (pay || random.nextInt(10) < 3) {
            update(changes, ShopSchema.CUSTOMERS, List.of(customerId), Map.of("updated_at", now));
        }
        long orderId = nextOrderId++;
        List<Map<String, Object>> lines = new ArrayList<>(items);
        BigDecimal total = BigDecimal.ZERO.setScale(ShopSchema.DECIMAL_SCALE);
        for (int line = 1; line <= items; line++) {
            BigDecimal price = BigDecimal.valueOf(50 + random.nextInt(19_950), ShopSchema.DECIMAL_SCALE);
            int quantity = 1 + random.nextInt(5);
            total = total.add(price.multiply(BigDecimal.valueOf(quantity)));
            lines.add(Map.of("order_id", orderId, "line_no", line,
                    "sku", String.format(Locale.ROOT, "SKU-%05d", random.nextInt(100_000)),
                    "quantity", quantity, "price", price));
        }
        create(changes, ShopSchema.ORDERS, Map.of("order_id", orderId, "customer_id", customerId,
                "status", pay ? "PAID" : "NEW", "total", total, "item_count", items, "created_at", now));
        TreeSet<Integer> lineNumbers = new TreeSet<>();
        for (Map<String, Object> line : lines) {
            create(changes, ShopSchema.ORDER_ITEMS, line);
            lineNumbers.add((Integer) line.get("line_no"));
        }
        orderLines.put(orderId, lineNumbers);
        if (pay) {
            insertPayment(changes, orderId, total, now);
            ordersOf(paidOrders, customerId).add(orderId);
        } else {
            ordersOf(openOrders, customerId).add(orderId);
        }
    }

    private void payment(List<ShopChange> changes, long customerId, LocalDateTime now) {
        long orderId = pick(ordersOf(openOrders, customerId));
        Map<String, Object> order = state.get(ShopSchema.ORDERS, List.of(orderId));
        insertPayment(changes, orderId, (BigDecimal) order.get("total"), now);
        update(changes, ShopSchema.ORDERS, List.of(orderId), Map.of("status", "PAID"));
        ordersOf(openOrders, customerId).remove(orderId);
        ordersOf(paidOrders, customerId).add(orderId);
    }

    private void insertPayment(List<ShopChange> changes, long orderId, BigDecimal amount, LocalDateTime now) {
        create(changes, ShopSchema.PAYMENTS, Map.of("payment_id", nextPaymentId++, "order_id", orderId,
                "amount", amount, "method", PAYMENT_METHODS[random.nextInt(PAYMENT_METHODS.length)],
                "paid_at", now));
    }

    private void removeItem(List<ShopChange> changes, long customerId) {
        long orderId = pick(ordersWithSeveralItems(customerId));
        TreeSet<Integer> lines = orderLines.get(orderId);
        int lineNo = pick(lines);
        Map<String, Object> item = delete(changes, ShopSchema.ORDER_ITEMS, List.of(orderId, lineNo));
        lines.remove(lineNo);
        Map<String, Object> order = state.get(ShopSchema.ORDERS, List.of(orderId));
        BigDecimal itemAmount = ((BigDecimal) item.get("price"))
                .multiply(BigDecimal.valueOf((Integer) item.get("quantity")));
        update(changes, ShopSchema.ORDERS, List.of(orderId), Map.of(
                "total", ((BigDecimal) order.get("total")).subtract(itemAmount),
                "item_count", (Integer) order.get("item_count") - 1));
    }

    private void cancelOrder(List<ShopChange> changes, long customerId) {
        long orderId = pick(ordersOf(openOrders, customerId));
        for (int lineNo : orderLines.remove(orderId)) {
            delete(changes, ShopSchema.ORDER_ITEMS, List.of(orderId, lineNo));
        }
        delete(changes, ShopSchema.ORDERS, List.of(orderId));
        ordersOf(openOrders, customerId).remove(orderId);
    }

    private void refund(List<ShopChange> changes, long customerId, LocalDateTime now) {
        long orderId = pick(ordersOf(paidOrders, customerId));
        Map<String, Object> order = state.get(ShopSchema.ORDERS, List.of(orderId));
        update(changes, ShopSchema.ORDERS, List.of(orderId), Map.of("status", "REFUNDED"));
        insertPayment(changes, orderId, ((BigDecimal) order.get("total")).negate(), now);
        ordersOf(paidOrders, customerId).remove(orderId);
    }

    private void customerUpdate(List<ShopChange> changes, long customerId, LocalDateTime now) {
        Map<String, Object> customer = state.get(ShopSchema.CUSTOMERS, List.of(customerId));
        String[] name = ((String) customer.get("name")).split(" ", 2);
        String last = random.nextInt(4) == 0 ? LAST_NAMES[random.nextInt(LAST_NAMES.length)] : name[1];
        update(changes, ShopSchema.CUSTOMERS, List.of(customerId), Map.of("name", name[0] + " " + last,
                "email", email(name[0], last, customerId, sequence), "updated_at", now));
    }

    private static String email(String first, String last, long customerId, long version) {
        String local = (first + "." + last).toLowerCase(Locale.ROOT) + "." + customerId
                + (version == 0 ? "" : "." + version);
        return local + "@example.com";
    }

    private TreeSet<Long> ordersWithSeveralItems(long customerId) {
        TreeSet<Long> result = new TreeSet<>();
        for (long orderId : ordersOf(openOrders, customerId)) {
            if (orderLines.get(orderId).size() >= 2) {
                result.add(orderId);
            }
        }
        return result;
    }

    private static TreeSet<Long> ordersOf(Map<Long, TreeSet<Long>> index, long customerId) {
        return index.computeIfAbsent(customerId, c -> new TreeSet<>());
    }

    private <T> T pick(TreeSet<T> candidates) {
        int index = random.nextInt(candidates.size());
        for (T candidate : candidates) {
            if (index-- == 0) {
                return candidate;
            }
        }
        throw new IllegalStateException("pick from an empty set");
    }

    private void create(List<ShopChange> changes, Table table, Map<String, ?> values) {
        Map<String, Object> after = state.upsert(table, values);
        changes.add(new ShopChange(table, Op.CREATE, null, Collections.unmodifiableMap(new LinkedHashMap<>(after))));
    }

    private void update(List<ShopChange> changes, Table table, List<Object> key, Map<String, ?> newValues) {
        Map<String, Object> before = new LinkedHashMap<>(state.get(table, key));
        Map<String, Object> values = new LinkedHashMap<>(before);
        values.putAll(newValues);
        Map<String, Object> after = state.upsert(table, values);
        changes.add(new ShopChange(table, Op.UPDATE, Collections.unmodifiableMap(before),
                Collections.unmodifiableMap(new LinkedHashMap<>(after))));
    }

    private Map<String, Object> delete(List<ShopChange> changes, Table table, List<Object> key) {
        Map<String, Object> before = state.delete(table, key);
        changes.add(new ShopChange(table, Op.DELETE, Collections.unmodifiableMap(before), null));
        return before;
    }
}
