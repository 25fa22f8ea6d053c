package io.routegateway.state.repository;

import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Flyway migrated the fresh test database, and Hibernate Reactive writes and reads through it. */
@QuarkusTest
class SchemaSmokeTests {

    @Inject
    Flyway flyway;

    @Test
    void flywayAppliedTheFoundationMigration() {
        assertThat(flyway.info().applied())
                .extracting(info -> info.getVersion().getVersion(), MigrationInfo::getDescription)
                .contains(tuple("1", "foundation"));
    }

    @Test
    @RunOnVertxContext
    void writesAndReadsARow(UniAsserter asserter) {
        String note = "smoke-" + UUID.randomUUID();
        asserter.execute(() -> Panache.withTransaction(() -> new SchemaSmoke(note).persist()));
        asserter.assertThat(
                () -> Panache.withSession(
                        () -> SchemaSmoke.<SchemaSmoke>find("note", note).firstResult()),
                found -> {
                    assertThat(found).isNotNull();
                    assertThat(found.id).isPositive();
                    assertThat(found.note).isEqualTo(note);
                });
    }
}
