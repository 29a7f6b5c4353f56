package io.lockstep.emulator;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** Connector/J connections to an emulator's query port as root, for the query-port conformance tests. */
final class InformationSchemaConformanceTestSupport {
    private InformationSchemaConformanceTestSupport() {
    }

    static Connection connect(StarRocksEmulatorExtension sr, String database) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("password", "");
        props.setProperty("connectTimeout", "10000");
        props.setProperty("socketTimeout", "30000");
        return DriverManager.getConnection(sr.emulator().jdbcUrl() + "/" + database, props);
    }
}
