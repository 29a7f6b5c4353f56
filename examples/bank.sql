-- The target of examples/bank.jsonl (the README's "try it"): two PRIMARY KEY tables in database bank.
CREATE DATABASE bank;
CREATE TABLE bank.accounts (id BIGINT NOT NULL, owner VARCHAR(64), balance DECIMAL(12, 2))
    PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;
CREATE TABLE bank.transfers (id BIGINT NOT NULL, from_id BIGINT, to_id BIGINT, amount DECIMAL(12, 2))
    PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;
