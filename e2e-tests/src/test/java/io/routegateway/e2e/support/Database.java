package io.routegateway.e2e.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

import org.postgresql.Driver;

/**
 * Read-only JDBC access to the system's database, to check what state-service stored. Every query
 * runs on a fresh read-only connection: the database may be restarted between two of them.
 */
public final class Database {

    private final String url;
    private final String user;
    private final String password;

    Database(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    public String url() {
        return url;
    }

    /** The {@code route_credentials} row, column name to value. */
    public Map<String, Object> credential(String id) {
        return queryOne("SELECT * FROM route_credentials WHERE id = ?", id)
                .orElseThrow(() -> new AssertionError("no route_credentials row " + id));
    }

    /** The {@code route_credential_models} row of (credential, model key), if there is one. */
    public Optional<Map<String, Object>> model(String credentialId, String modelKey) {
        return queryOne(
                "SELECT * FROM route_credential_models WHERE route_credential_id = ? AND model_key = ?",
                credentialId,
                modelKey);
    }

    public List<Map<String, Object>> models(String credentialId) {
        return query(
                "SELECT * FROM route_credential_models WHERE route_credential_id = ? ORDER BY model_key", credentialId);
    }

    /** Ids of the events applied for these credentials ({@code processed_events}). */
    public Set<UUID> processedEvents(Collection<String> credentialIds) {
        Set<UUID> ids = new HashSet<>();
        for (Map<String, Object> row :
                query("SELECT event_id FROM processed_events WHERE credential_id = ANY (?)", (Object)
                        credentialIds.toArray(String[]::new))) {
            ids.add((UUID) row.get("event_id"));
        }
        return ids;
    }

    public long count(String sql, Object... parameters) {
        return ((Number) queryOne(sql, parameters)
                        .orElseThrow()
                        .values()
                        .iterator()
                        .next())
                .longValue();
    }

    public Optional<Map<String, Object>> queryOne(String sql, Object... parameters) {
        List<Map<String, Object>> rows = query(sql, parameters);
        if (rows.size() > 1) {
            throw new AssertionError("more than one row for " + sql);
        }
        return rows.stream().findFirst();
    }

    public List<Map<String, Object>> query(String sql, Object... parameters) {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                Object parameter = parameters[i];
                if (parameter instanceof String[] array) {
                    statement.setArray(i + 1, connection.createArrayOf("text", array));
                } else {
                    statement.setObject(i + 1, parameter);
                }
            }
            try (ResultSet result = statement.executeQuery()) {
                ResultSetMetaData meta = result.getMetaData();
                List<Map<String, Object>> rows = new ArrayList<>();
                while (result.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int column = 1; column <= meta.getColumnCount(); column++) {
                        row.put(meta.getColumnName(column), result.getObject(column));
                    }
                    rows.add(row);
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed: " + e.getMessage(), e);
        }
    }

    /** The server's major version (e.g. {@code 15}), for {@code pg_ctlcluster}. */
    public String serverMajorVersion() {
        Object version = queryOne("SHOW server_version")
                .orElseThrow()
                .values()
                .iterator()
                .next();
        return version.toString().split("[.\\s]")[0];
    }

    private Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        Connection connection = new Driver().connect(url, properties);
        if (connection == null) {
            throw new SQLException("the PostgreSQL driver refused " + url);
        }
        connection.setReadOnly(true);
        return connection;
    }
}
