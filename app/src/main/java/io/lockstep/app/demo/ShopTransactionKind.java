package io.lockstep.app.demo;

/** The kinds of source transactions the shop workload writes, with the tables each touches. */
public enum ShopTransactionKind {
    /** An order with 1–5 items: orders, order_items, and customers when the customer is new or updated. */
    NEW_ORDER,
    /** Order, items and payment at once: customers, orders, order_items, payments (up to 4 tables). */
    CHECKOUT,
    /** Paying an open order: payments (insert), orders (status PAID). */
    PAYMENT,
    /** Removing one item from an open order: order_items (delete), orders (total, item_count). */
    REMOVE_ITEM,
    /** Cancelling an open order: all its order_items and the order deleted. */
    CANCEL_ORDER,
    /** Refunding a paid order: orders (status REFUNDED), payments (a negative amount). */
    REFUND,
    /** A customer changing name or email: customers only. */
    CUSTOMER_UPDATE,
    /** A bulk order of hundreds of items: orders, order_items. */
    BULK_ORDER
}
