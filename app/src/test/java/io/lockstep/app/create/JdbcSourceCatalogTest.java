package io.lockstep.app.create;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * What {@link JdbcSourceCatalog} decides before it reaches a database: which URLs it reads, and that no password
 * reaches a message. The catalogs themselves are read on real servers by e2e's {@code JdbcSourceCatalogPostgresIT}
 * and {@code JdbcSourceCatalogMariaDbIT}.
 */
class JdbcSourceCatalogTest {

    @Test
    void refusesAUrlOfAnotherDatabaseInOneLineWithoutItsPassword() {
        assertThatThrownBy(() -> JdbcSourceCatalog.open("jdbc:sqlserver://db:1433;user=sa;password=s3cret", "sa",
                "other"))
                .isInstanceOf(SourceCatalogException.class)
                .hasMessage("the source JDBC URL jdbc:sqlserver://db:1433;user=sa;password=*** is not a"
                        + " jdbc:postgresql:, jdbc:mysql: or jdbc:mariadb: URL; table creation reads only those catalogs");
    }

    @Test
    void masksEveryPasswordParameterOfAUrl() {
        assertThat(JdbcSourceCatalog.withoutPassword("jdbc:postgresql://h/db?user=u&password=p%40ss&ssl=true"))
                .isEqualTo("jdbc:postgresql://h/db?user=u&password=***&ssl=true");
        assertThat(JdbcSourceCatalog.withoutPassword("jdbc:mysql://h/db?PASSWORD=x&password1=y&sslPassword=z"))
                .isEqualTo("jdbc:mysql://h/db?PASSWORD=***&password1=***&sslPassword=***");
        assertThat(JdbcSourceCatalog.withoutPassword("jdbc:mariadb://h:3306/shop"))
                .isEqualTo("jdbc:mariadb://h:3306/shop");
    }
}
