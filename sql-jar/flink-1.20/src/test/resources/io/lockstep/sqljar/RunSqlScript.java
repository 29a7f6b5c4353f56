import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;

/**
 * A user's Table API program, run from this source file by the Java launcher in a JVM whose classpath is Flink's
 * table artifacts and the Lockstep SQL connector jar only (SqlConnectorJarIT). Arguments: the SQL script (statements
 * each ending in ";" at the end of a line), then Flink options as {@code key=value}. Every statement but INSERT runs
 * in order; the INSERTs run together as one job, awaited to its end. Exits 0 when the job finished, else 1 with the
 * error on stderr.
 */
public class RunSqlScript {
    public static void main(String[] args) {
        try {
            Map<String, String> options = new HashMap<>();
            for (int i = 1; i < args.length; i++) {
                int eq = args[i].indexOf('=');
                options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
            }
            TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode()
                    .withConfiguration(Configuration.fromMap(options)).build());
            StatementSet inserts = tEnv.createStatementSet();
            for (String statement : Files.readString(Path.of(args[0])).split(";\\s*(\\n|$)")) {
                if (statement.isBlank()) {
                    continue;
                }
                if (statement.strip().toUpperCase().startsWith("INSERT")) {
                    inserts.addInsertSql(statement);
                } else {
                    tEnv.executeSql(statement).await();
                }
            }
            inserts.execute().await();
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }
}
