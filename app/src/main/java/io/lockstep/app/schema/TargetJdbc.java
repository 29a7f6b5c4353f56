package io.lockstep.app.schema;

import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * The target's MySQL-protocol port as {@code lockstep run} reaches it ({@code --jdbc-url}, {@code --user},
 * {@code --password}), through MySQL Connector/J: the one place that opens a connection to it for reading columns,
 * schema changes and table creation. The driver is called directly rather than through {@code DriverManager}, which
 * does not see drivers of Flink's child-first user-code class loader.
 *
 * <p>Immutable; {@link #toString()} never shows the password.
 */
public final class TargetJdbc implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String url;
    private final String user;
    private final String password;

    /**
     * @param url {@code jdbc:mysql://host:port[/db]}
     * @param user the user
     * @param password its password, may be {@code null} or empty
     */
    public TargetJdbc(String url, String user, String password) {
        this.url = Objects.requireNonNull(url, "url");
        this.user = Objects.requireNonNull(user, "user");
        this.password = password == null ? "" : password;
    }

    /** @return the URL (holds no password: {@code --password} is given apart) */
    public String url() {
        return url;
    }

    /**
     * @param settings further driver properties, e.g. {@code connectTimeout} / {@code socketTimeout} in ms
     * @return an open connection, or {@code null} when the URL is not a {@code jdbc:mysql:} URL
     * @throws SQLException when the server cannot be reached or refuses the user
     */
    public Connection connectOrNull(Map<String, String> settings) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        settings.forEach(properties::setProperty);
        return new com.mysql.cj.jdbc.Driver().connect(url, properties);
    }

    /**
     * @return an open connection
     * @throws SQLException when the URL is not a {@code jdbc:mysql:} URL (naming it), or the server cannot be reached
     *     or refuses the user
     */
    public Connection connect() throws SQLException {
        Connection connection = connectOrNull(Map.of());
        if (connection == null) {
            throw new SQLException("--jdbc-url " + url + " is not a jdbc:mysql:// URL");
        }
        return connection;
    }

    @Override
    public String toString() {
        return url + " as " + user;
    }
}
