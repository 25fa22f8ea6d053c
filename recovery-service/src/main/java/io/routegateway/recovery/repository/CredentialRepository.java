package io.routegateway.recovery.repository;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import org.jboss.logging.Logger;

/**
 * Read-only SQL over the tables state-service owns. Timestamps are ISO-8601 instant texts, parsed
 * here and compared as {@link Instant}s. A row that cannot be read (a hand-edited timestamp, say)
 * is logged and left out, so one bad credential never hides the others.
 */
@ApplicationScoped
public class CredentialRepository {

    private static final Logger LOG = Logger.getLogger(CredentialRepository.class);

    private static final String CREDENTIAL_COLUMNS = """
            SELECT c.id, c.platform, c.kind, c.base_url, c.encrypted_secret, c.config_json, c.archived,
                   c.status, c.transient_failure_count, c.next_retry_at, c.cooldown_until,
                   c.last_failure_kind, c.last_failure_message, c.last_failure_response_json,
                   c.semantic_failure_streak_count, c.semantic_failure_streak_fingerprint,
                   c.oauth_account_id
            FROM route_credentials c
            """;

    /**
     * The recovery walk: every non-archived account of every platform that automation may touch —
     * not revoked, not paused (a person's will), not blacklisted (awaits a person's verification).
     * route-core's {@code RecoveryDecisions.needsRecovery} decides the same again for each row; the
     * query only spares loading accounts no rule can ever act on. The marker test is NULL-safe: an
     * error without a failure kind stays a candidate.
     */
    static final String RECOVERY_CANDIDATES = CREDENTIAL_COLUMNS
            + "WHERE NOT c.archived AND c.status NOT IN ('" + AccountStatus.REVOKED.wire() + "', '"
            + AccountStatus.PAUSED.wire() + "') AND NOT (c.status = '" + AccountStatus.ERROR.wire()
            + "' AND c.last_failure_kind IS NOT DISTINCT FROM '" + AccountState.BLACKLISTED_KIND + "') ORDER BY c.id";

    static final String BY_ID = CREDENTIAL_COLUMNS + "WHERE c.id = $1";

    static final String MODEL_ROWS = """
            SELECT route_credential_id, model_key, status, transient_failure_count, cooldown_until,
                   semantic_failure_streak_count, semantic_failure_streak_fingerprint,
                   last_failure_kind, last_failure_message, last_failure_response_json, created_at, updated_at
            FROM route_credential_models
            WHERE route_credential_id = ANY($1)
            """;

    private final Pool pool;

    CredentialRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<CredentialRecord>> recoveryCandidates() {
        return pool.query(RECOVERY_CANDIDATES).execute().map(rows -> readAll(rows, CredentialRepository::credential));
    }

    /** The credential, archived or not; empty when there is no such id or its row cannot be read. */
    public Uni<Optional<CredentialRecord>> find(String id) {
        return pool.preparedQuery(BY_ID)
                .execute(Tuple.of(id))
                .map(rows ->
                        readAll(rows, CredentialRepository::credential).stream().findFirst());
    }

    /** The model rows of these accounts, by account id; an account without rows is absent. */
    public Uni<Map<String, List<ModelState>>> modelRows(List<String> credentialIds) {
        if (credentialIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(MODEL_ROWS)
                .execute(Tuple.of(credentialIds.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, List<ModelState>> byCredential = new HashMap<>();
                    for (Row row : rows) {
                        try {
                            byCredential
                                    .computeIfAbsent(row.getString("route_credential_id"), id -> new ArrayList<>())
                                    .add(modelState(row));
                        } catch (RuntimeException e) {
                            LOG.warnf(
                                    "Skipping unreadable model row %s/%s: %s",
                                    row.getString("route_credential_id"), row.getString("model_key"), e.getMessage());
                        }
                    }
                    return byCredential;
                });
    }

    private static <T> List<T> readAll(RowSet<Row> rows, Function<Row, T> reader) {
        List<T> out = new ArrayList<>(rows.size());
        for (Row row : rows) {
            try {
                out.add(reader.apply(row));
            } catch (RuntimeException e) {
                LOG.warnf("Skipping unreadable credential %s: %s", row.getString("id"), e.getMessage());
            }
        }
        return out;
    }

    private static CredentialRecord credential(Row row) {
        AccountState account = new AccountState(
                AccountStatus.fromWire(row.getString("status")),
                row.getInteger("transient_failure_count"),
                instant(row.getString("next_retry_at")),
                instant(row.getString("cooldown_until")),
                row.getString("last_failure_kind"),
                row.getString("last_failure_message"),
                row.getString("last_failure_response_json"),
                row.getInteger("semantic_failure_streak_count"),
                row.getString("semantic_failure_streak_fingerprint"));
        return new CredentialRecord(
                row.getString("id"),
                Platform.fromWire(row.getString("platform")),
                CredentialKind.fromWire(row.getString("kind")),
                row.getString("base_url"),
                row.getString("encrypted_secret"),
                configObject(row.getString("config_json")),
                account,
                row.getBoolean("archived"),
                row.getString("oauth_account_id"));
    }

    private static ModelState modelState(Row row) {
        return new ModelState(
                row.getString("model_key"),
                ModelStatus.fromWire(row.getString("status")),
                row.getInteger("transient_failure_count"),
                instant(row.getString("cooldown_until")),
                row.getInteger("semantic_failure_streak_count"),
                row.getString("semantic_failure_streak_fingerprint"),
                row.getString("last_failure_kind"),
                row.getString("last_failure_message"),
                row.getString("last_failure_response_json"),
                instant(row.getString("created_at")),
                instant(row.getString("updated_at")));
    }

    private static Instant instant(String text) {
        return text == null || text.isBlank() ? null : Instant.parse(text.strip());
    }

    /** A corrupt config is not an unreadable row: it reads as "no config", i.e. recovery off. */
    private static JsonNode configObject(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            JsonNode node = Json.MAPPER.readTree(text);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
