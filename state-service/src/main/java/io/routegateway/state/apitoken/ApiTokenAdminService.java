package io.routegateway.state.apitoken;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.identity.ApiTokenSecret;
import io.routegateway.core.identity.Principal;
import io.routegateway.core.identity.Role;
import io.routegateway.state.pool.AdminWrites;
import io.routegateway.state.pool.References;
import io.routegateway.state.repository.ApiTokenEntity;
import io.routegateway.state.repository.ApiTokenRepository;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;

/**
 * API tokens: created with a role (never above the creator's), shown once, stored as SHA-256,
 * renamed or re-dated by PATCH, revoked by DELETE (the row goes: the next call with it is 401). A
 * caller sees and manages only the tokens it could have created; any other id is 404.
 */
@ApplicationScoped
public class ApiTokenAdminService {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final ApiTokenRepository tokens;
    private final References references;
    private final AdminWrites writes;
    private final Clock clock;

    ApiTokenAdminService(ApiTokenRepository tokens, References references, AdminWrites writes, Clock clock) {
        this.tokens = tokens;
        this.references = references;
        this.writes = writes;
        this.clock = clock;
    }

    public Uni<List<ApiTokenView>> list(Principal caller) {
        Instant now = clock.instant();
        return Panache.withSession(() -> tokens.listAll())
                .map(rows -> rows.stream()
                        .filter(row -> manages(caller, row))
                        .sorted(Comparator.comparing((ApiTokenEntity row) -> row.createdAt)
                                .thenComparing(row -> row.id))
                        .map(row -> view(row, now))
                        .toList());
    }

    public Uni<CreatedApiToken> create(Principal caller, JsonBody<ApiTokenInput> body) {
        Instant now = clock.instant();
        ApiTokenRules.NewToken checked = ApiTokenRules.create(body, caller, now);
        String token = ApiTokenSecret.generate(RANDOM);
        ApiTokenEntity row = new ApiTokenEntity();
        row.id = "tok-" + UUID.randomUUID().toString().substring(0, 13);
        row.name = checked.name();
        row.role = checked.role().wire();
        row.teamId = checked.teamId();
        row.tokenHash = ApiTokenSecret.hash(token);
        row.tokenPrefix = token.substring(0, ApiTokenSecret.DISPLAY_PREFIX_LENGTH);
        row.createdBy = caller.subject();
        row.createdAt = now;
        row.updatedAt = now;
        row.expiresAt = checked.expiresAt();
        return writes.inTransaction(() -> (row.teamId == null
                        ? Uni.createFrom().voidItem()
                        : references.requireTeam(row.teamId))
                .flatMap(ok -> tokens.persist(row))
                .map(saved -> new CreatedApiToken(token, CreatedApiToken.NOTICE, view(row, now))));
    }

    public Uni<ApiTokenView> update(Principal caller, String id, JsonBody<ApiTokenPatch> body) {
        Instant now = clock.instant();
        ApiTokenRules.Changes changes = ApiTokenRules.update(body, now);
        return writes.inTransaction(() -> managed(caller, id).map(row -> {
            if (changes.name() != null) {
                row.name = changes.name();
            }
            if (changes.expirySent()) {
                row.expiresAt = changes.expiresAt();
            }
            row.updatedAt = now;
            return view(row, now);
        }));
    }

    public Uni<Void> revoke(Principal caller, String id) {
        return writes.inTransaction(() -> managed(caller, id).flatMap(tokens::delete));
    }

    /** The current view of a token for the audit log, or null; whoever asks. */
    public Uni<ApiTokenView> current(String id) {
        return tokens.findById(id).map(row -> row == null ? null : view(row, clock.instant()));
    }

    private Uni<ApiTokenEntity> managed(Principal caller, String id) {
        return tokens.findById(id).map(row -> {
            if (row == null || !manages(caller, row)) {
                throw AdminException.notFound("api token", id);
            }
            return row;
        });
    }

    private static boolean manages(Principal caller, ApiTokenEntity row) {
        return Role.fromWire(row.role)
                .map(role -> ApiTokenRules.manages(caller, role, row.teamId))
                .orElse(false);
    }

    static ApiTokenView view(ApiTokenEntity row, Instant now) {
        return new ApiTokenView(
                row.id,
                row.name,
                row.role,
                row.teamId,
                row.tokenPrefix,
                row.createdBy,
                row.createdAt,
                row.updatedAt,
                row.expiresAt,
                row.expiresAt != null && !now.isBefore(row.expiresAt),
                row.lastUsedAt);
    }
}
