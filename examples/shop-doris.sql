-- The shop schema of examples/shop.sql for Apache Doris (`lockstep demo --target doris`): UNIQUE KEY tables,
-- which keep the last write of a key and delete a key on `__DORIS_DELETE_SIGN__` = 1 (docs/protocol.md#doris-endpoints-redirects-and-headers).
-- Keep the columns in step with shop.sql.
CREATE DATABASE IF NOT EXISTS shop;

CREATE TABLE IF NOT EXISTS shop.customers (
  customer_id BIGINT NOT NULL,
  name VARCHAR(128),
  email VARCHAR(256),
  updated_at DATETIME
) UNIQUE KEY (customer_id)
DISTRIBUTED BY HASH(customer_id) BUCKETS 4
PROPERTIES ("replication_num" = "1");

CREATE TABLE IF NOT EXISTS shop.orders (
  order_id BIGINT NOT NULL,
  customer_id BIGINT NOT NULL,
  status VARCHAR(32),
  total DECIMAL(12, 2),
  item_count INT,
  created_at DATETIME
) UNIQUE KEY (order_id)
DISTRIBUTED BY HASH(order_id) BUCKETS 4
PROPERTIES ("replication_num" = "1");

CREATE TABLE IF NOT EXISTS shop.order_items (
  order_id BIGINT NOT NULL,
  line_no INT NOT NULL,
  sku VARCHAR(64),
  quantity INT,
  price DECIMAL(12, 2)
) UNIQUE KEY (order_id, line_no)
DISTRIBUTED BY HASH(order_id) BUCKETS 4
PROPERTIES ("replication_num" = "1");

CREATE TABLE IF NOT EXISTS shop.payments (
  payment_id BIGINT NOT NULL,
  order_id BIGINT NOT NULL,
  amount DECIMAL(12, 2),
  method VARCHAR(32),
  paid_at DATETIME
) UNIQUE KEY (payment_id)
DISTRIBUTED BY HASH(payment_id) BUCKETS 4
PROPERTIES ("replication_num" = "1");
