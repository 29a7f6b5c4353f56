-- The target of examples/bank.jsonl (the README's "try it"): two PRIMARY KEY tables in database bank.
CREATE DATABASE bank;
CREATE TABLE bank.accounts (id BIGINT NOT NULL, owner VARCHAR(64), balance DECIMAL(12, 2))
    PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;
CREATE TABLE bank.transfers (id BIGINT NOT NULL, from_id BIGINT, to_id BIGINT, amount DECIMAL(12, 2))
    PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;
-- The progress table of `lockstep run`'s default mode, exactly-once across tables (docs/exactly-once.md): each
-- StarRocks transaction also records, here, the Kafka offset (or input line) it loaded up to and the source
-- database's own commit position of the last source transaction it loaded (commit_position).
CREATE TABLE IF NOT EXISTS bank.lockstep_progress (
  job_id VARCHAR(64) NOT NULL,
  source VARCHAR(255) NOT NULL,
  source_partition INT NOT NULL,
  position BIGINT NOT NULL,
  run_id VARCHAR(32) NOT NULL,
  label VARCHAR(128) NOT NULL,
  committed_at DATETIME NOT NULL,
  commit_position VARCHAR(65533) NULL
) PRIMARY KEY (job_id, source, source_partition)
DISTRIBUTED BY HASH(job_id) BUCKETS 1;
