package io.routegateway.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Against the local PostgreSQL server (deploy/local/postgres.sh sets it up). */
class PostgresDatabaseResourceTests {

    private final PostgresDatabaseResource.Server server = PostgresDatabaseResource.chosenServer();

    @Test
    void createsAFreshDatabaseAndDropsItOnStop() throws SQLException {
        PostgresDatabaseResource resource = new PostgresDatabaseResource(server);

        Map<String, String> config = resource.start();
        String database = resource.database();
        try {
            assertThat(database).startsWith(PostgresDatabaseResource.DATABASE_PREFIX);
            assertThat(config)
                    .containsEntry("quarkus.datasource.jdbc.url", server.jdbcUrl(database))
                    .containsEntry("quarkus.datasource.reactive.url", server.reactiveUrl(database))
                    .containsEntry("quarkus.datasource.username", server.user())
                    .containsKey("quarkus.datasource.password");
            try (Connection connection = server.connect(database);
                    ResultSet tables = connection
                            .createStatement()
                            .executeQuery("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")) {
                tables.next();
                assertThat(tables.getInt(1)).isZero();
            }
        } finally {
            resource.stop();
        }

        assertThat(databaseExists(database)).isFalse();
        assertThat(resource.database()).isNull();
    }

    @Test
    void twoRunsGetTwoDatabases() {
        PostgresDatabaseResource first = new PostgresDatabaseResource(server);
        PostgresDatabaseResource second = new PostgresDatabaseResource(server);
        try {
            first.start();
            second.start();
            assertThat(first.database()).isNotEqualTo(second.database());
        } finally {
            first.stop();
            second.stop();
        }
    }

    private boolean databaseExists(String name) throws SQLException {
        try (Connection connection = server.connect("postgres");
                PreparedStatement query = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            query.setString(1, name);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next();
            }
        }
    }
}
