package io.routegateway.testsupport;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import org.jboss.logging.Logger;
import org.postgresql.Driver;

/**
 * Gives a Quarkus test a fresh, empty PostgreSQL database {@code route_test_<random>}, and drops it
 * when the test run stops. The server is chosen by {@link TestInfrastructure}: a PostgreSQL
 * container (one per JVM) where a Docker engine answers, else the local server, found through {@code
 * PGHOST}, {@code PGPORT}, {@code PGUSER} and {@code PGPASSWORD} (defaults {@code 127.0.0.1}, {@code
 * 5432}, {@code route}, {@code route}); the role needs {@code CREATEDB}. The developer's {@code
 * route_gateway} database is never touched.
 */
public class PostgresDatabaseResource implements QuarkusTestResourceLifecycleManager {

    public static final String DATABASE_PREFIX = "route_test_";
    private static final Logger LOG = Logger.getLogger(PostgresDatabaseResource.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private Server server;
    private String database;

    /** The server is chosen on {@link #start()}. */
    public PostgresDatabaseResource() {}

    PostgresDatabaseResource(Server server) {
        this.server = server;
    }

    /** The server of this run: a container or the local server (see {@link TestInfrastructure}). */
    static Server chosenServer() {
        return switch (TestInfrastructure.postgresSource()) {
            case CONTAINER -> SharedContainers.postgres();
            case LOCAL, GIVEN -> Server.fromEnvironment();
        };
    }

    @Override
    public Map<String, String> start() {
        if (server == null) {
            server = chosenServer();
        }
        byte[] suffix = new byte[6];
        RANDOM.nextBytes(suffix);
        String name = DATABASE_PREFIX + HexFormat.of().formatHex(suffix);
        server.execute("CREATE DATABASE " + name);
        database = name;
        LOG.infof("Created test database %s on %s:%d", name, server.host(), server.port());
        return Map.of(
                "quarkus.datasource.username", server.user(),
                "quarkus.datasource.password", server.password(),
                "quarkus.datasource.jdbc.url", server.jdbcUrl(name),
                "quarkus.datasource.reactive.url", server.reactiveUrl(name));
    }

    @Override
    public void stop() {
        if (database != null) {
            server.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            LOG.infof("Dropped test database %s", database);
            database = null;
        }
    }

    /** The database this resource created, or null before {@link #start()} and after {@link #stop()}. */
    String database() {
        return database;
    }

    /** Where the PostgreSQL server is and which role the tests use. */
    record Server(String host, int port, String user, String password) {

        static Server fromEnvironment() {
            return new Server(
                    env("PGHOST", "127.0.0.1"),
                    Integer.parseInt(env("PGPORT", "5432")),
                    env("PGUSER", "route"),
                    env("PGPASSWORD", "route"));
        }

        String jdbcUrl(String db) {
            return "jdbc:postgresql://" + host + ":" + port + "/" + db;
        }

        String reactiveUrl(String db) {
            return "postgresql://" + host + ":" + port + "/" + db;
        }

        /** Opens a connection to {@code db}; the caller closes it. */
        Connection connect(String db) throws SQLException {
            Properties properties = new Properties();
            properties.setProperty("user", user);
            properties.setProperty("password", password);
            // the driver class is used directly: DriverManager does not see drivers of Quarkus' class loaders
            Connection connection = new Driver().connect(jdbcUrl(db), properties);
            if (connection == null) {
                throw new SQLException("the PostgreSQL driver refused the URL " + jdbcUrl(db));
            }
            return connection;
        }

        /** Runs one statement in the maintenance database {@code postgres}. */
        void execute(String sql) {
            try (Connection connection = connect("postgres");
                    Statement statement = connection.createStatement()) {
                statement.execute(sql);
            } catch (SQLException e) {
                throw new IllegalStateException(
                        "PostgreSQL at " + host + ":" + port + " as " + user + " failed on '" + sql
                                + "' (run deploy/local/postgres.sh to set up the local server)",
                        e);
            }
        }

        private static String env(String name, String fallback) {
            String value = System.getenv(name);
            return value == null || value.isBlank() ? fallback : value;
        }
    }
}
