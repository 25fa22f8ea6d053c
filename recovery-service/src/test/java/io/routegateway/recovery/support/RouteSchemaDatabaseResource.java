package io.routegateway.recovery.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.routegateway.testsupport.PostgresDatabaseResource;
import org.flywaydb.core.Flyway;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A fresh test database with state-service's schema: its Flyway migrations are run from the
 * repository, so these tests always read the schema state-service really creates.
 */
public class RouteSchemaDatabaseResource extends PostgresDatabaseResource {

    static final Path MIGRATIONS = Path.of("..", "state-service", "src", "main", "resources", "db", "migration");

    @Override
    public Map<String, String> start() {
        Map<String, String> config = super.start();
        if (!Files.isDirectory(MIGRATIONS)) {
            throw new IllegalStateException("state-service migrations not found at " + MIGRATIONS.toAbsolutePath());
        }
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(config.get("quarkus.datasource.jdbc.url"));
        dataSource.setUser(config.get("quarkus.datasource.username"));
        dataSource.setPassword(config.get("quarkus.datasource.password"));
        Flyway.configure(RouteSchemaDatabaseResource.class.getClassLoader())
                .dataSource(dataSource)
                .locations("filesystem:" + MIGRATIONS.toAbsolutePath().normalize())
                .load()
                .migrate();
        return config;
    }
}
