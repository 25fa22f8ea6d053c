package io.routegateway.state.oauth;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.UnaryOperator;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.failure.SecretMask;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.OAuthCodes;
import io.routegateway.core.oauth.OAuthMaterial;
import io.routegateway.core.oauth.Pkce;
import io.routegateway.core.oauth.TokenResponse;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.core.text.StorableText;
import io.routegateway.state.pool.AdminWrites;
import io.routegateway.state.pool.SecretRedactor;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialOAuthEntity;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.repository.PendingAuthorizationEntity;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;

/**
 * The OAuth admin endpoints of an official credential: its auth view, storing pasted material (also
 * re-authorization in place: a revoked account comes back), and the authorization-code flow. What is
 * accepted is decided by {@link OAuthAdminRules}; this class reads, locks and stores. A refused write
 * changes nothing: the transaction is rolled back before anything is stored.
 */
@ApplicationScoped
public class OAuthAdminService {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** The auth view of an official credential holding a static token: not OAuth-managed. */
    static final OAuthAdminView NOT_MANAGED = new OAuthAdminView(null, null, null, null, null);

    private final CredentialRepository credentials;
    private final OAuthStore store;
    private final OAuthFlows flows;
    private final AdminWrites writes;
    private final SecretBox secretBox;
    private final SecretRedactor redactor;
    private final TokenEndpoint tokens;
    private final Clock clock;

    OAuthAdminService(
            CredentialRepository credentials,
            OAuthStore store,
            OAuthFlows flows,
            AdminWrites writes,
            SecretBox secretBox,
            SecretRedactor redactor,
            TokenEndpoint tokens,
            Clock clock) {
        this.credentials = credentials;
        this.store = store;
        this.flows = flows;
        this.writes = writes;
        this.secretBox = secretBox;
        this.redactor = redactor;
        this.tokens = tokens;
        this.clock = clock;
    }

    /** The auth view; all fields null for an official credential holding a static token. */
    public Uni<OAuthAdminView> view(String id) {
        return Panache.withSession(() -> official(credentials.findById(id), id)
                .flatMap(row -> store.oauthRow(id).map(oauth -> view(row, oauth))));
    }

    /** Stores pasted material ({@code credentials_json} or the token fields) and answers the auth view. */
    public Uni<OAuthAdminView> put(String id, JsonNode body) {
        JsonBody.refuseUnknownFields(body, OAuthInputs.Material.class);
        return writes.inTransaction(() -> credentials.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("credential", id);
            }
            Instant now = now();
            OAuthMaterial material = OAuthAdminRules.material(
                    Platform.fromWire(row.platform), CredentialKind.fromWire(row.kind), body, now);
            return store.store(row, material, now)
                    .flatMap(version -> store.oauthRow(id))
                    .map(oauth -> view(row, oauth));
        }));
    }

    /**
     * Starts an authorization-code flow: the state and the sealed code verifier are kept for {@link
     * OAuthAdminRules#PENDING_TTL}; started flows that expired are dropped on the way.
     */
    public Uni<AuthorizeStartView> authorize(String id, JsonNode body) {
        JsonBody.refuseUnknownFields(body, OAuthInputs.Authorize.class);
        return writes.inTransaction(() -> credentials.findById(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("credential", id);
            }
            Instant now = now();
            Platform platform = Platform.fromWire(row.platform);
            OAuthAdminRules.Start start = OAuthAdminRules.start(
                    platform,
                    CredentialKind.fromWire(row.kind),
                    flows.settings(platform),
                    body,
                    random(Pkce.VERIFIER_BYTES),
                    random(Pkce.STATE_BYTES),
                    now);
            PendingAuthorizationEntity pending = new PendingAuthorizationEntity();
            pending.state = start.state();
            pending.credentialId = row.id;
            pending.sealedCodeVerifier =
                    secretBox.seal(PendingAuthorizationEntity.verifierBinding(row.id, row.platform), start.verifier());
            pending.redirectUri = start.redirectUri();
            pending.createdAt = start.createdAt();
            pending.expiresAt = start.expiresAt();
            return PendingAuthorizationEntity.delete("expiresAt <= ?1", now)
                    .flatMap(dropped -> pending.persist())
                    .map(saved -> new AuthorizeStartView(
                            start.authorizeUrl(), start.state(), start.redirectUri(), start.expiresAt()));
        }));
    }

    /**
     * Completes an authorization-code flow: the state is used up (deleted, committed) before the code
     * is exchanged, so a replay or a concurrent second callback with it is refused; the tokens are
     * then stored in a transaction of their own (the token call holds no row lock). A refused or
     * failed exchange is 502 {@code oauth_exchange_failed}, its message without the code or verifier.
     */
    public Uni<OAuthAdminView> callback(String id, JsonNode body) {
        JsonBody.refuseUnknownFields(body, OAuthInputs.Callback.class);
        Pkce.Callback callback = OAuthAdminRules.callback(body);
        return Panache.withTransaction(() -> official(credentials.findById(id), id)
                        .flatMap(
                                row -> PendingAuthorizationEntity.<PendingAuthorizationEntity>findById(callback.state())
                                        .flatMap(pending -> useUp(row, pending))))
                .flatMap(exchange -> tokens.exchangeCode(
                                exchange.platform(),
                                callback.code(),
                                exchange.verifier(),
                                exchange.redirectUri(),
                                callback.state())
                        .map(answer -> issued(answer, callback.code(), exchange.verifier())))
                .flatMap(material ->
                        writes.inTransaction(() -> credentials.findForUpdate(id).flatMap(row -> {
                            if (row == null) {
                                throw AdminException.notFound("credential", id);
                            }
                            OAuthAdminRules.requireOfficial(CredentialKind.fromWire(row.kind));
                            return store.store(row, material.material(), now())
                                    .flatMap(version -> store.oauthRow(id))
                                    .map(oauth -> view(row, oauth));
                        })));
    }

    /** What the code is exchanged with, once the state was found usable and deleted. */
    private record Exchange(Platform platform, String verifier, String redirectUri) {

        @Override
        public String toString() {
            return "Exchange[platform=" + platform + ", verifier=***, redirectUri=" + redirectUri + "]";
        }
    }

    private Uni<Exchange> useUp(CredentialEntity row, PendingAuthorizationEntity pending) {
        OAuthAdminRules.requireUsable(
                pending == null ? null : new OAuthAdminRules.Pending(pending.credentialId, pending.expiresAt),
                row.id,
                now());
        String verifier;
        try {
            verifier = secretBox.open(
                    PendingAuthorizationEntity.verifierBinding(row.id, row.platform), pending.sealedCodeVerifier);
        } catch (IllegalArgumentException sealedForAnotherPlatform) {
            throw new ValidationException(
                    OAuthCodes.STATE,
                    "the authorization was started before the credential's platform changed; start it again");
        }
        Exchange exchange = new Exchange(Platform.fromWire(row.platform), verifier, pending.redirectUri);
        // only the caller whose DELETE removed the row goes on: a concurrent callback finds 0 rows
        return PendingAuthorizationEntity.delete("state", pending.state).map(deleted -> {
            if (deleted == 0) {
                throw new ValidationException(
                        OAuthCodes.STATE, "the state is unknown or was already used; start the authorization again");
            }
            return exchange;
        });
    }

    private static TokenResponse.Tokens issued(TokenResponse answer, String code, String verifier) {
        if (answer instanceof TokenResponse.Tokens tokens) {
            return tokens;
        }
        TokenResponse.Failure failure = (TokenResponse.Failure) answer;
        StringBuilder reason = new StringBuilder(failure.status() == null ? "no answer" : "HTTP " + failure.status());
        if (failure.error() != null) {
            reason.append(' ').append(failure.error());
        }
        if (failure.description() != null) {
            reason.append(": ").append(failure.description());
        }
        String screened = StorableText.truncate(
                StorableText.sanitise(SecretMask.apply(SecretMask.apply(reason.toString(), code), verifier)),
                OAuthAdminRules.MAX_ERROR_CHARS);
        throw new AdminException(
                502,
                OAuthCodes.EXCHANGE_FAILED,
                "the platform's token endpoint did not exchange the code (" + screened
                        + "); start the authorization again");
    }

    private static Uni<CredentialEntity> official(Uni<CredentialEntity> found, String id) {
        return found.map(row -> {
            if (row == null) {
                throw AdminException.notFound("credential", id);
            }
            OAuthAdminRules.requireOfficial(CredentialKind.fromWire(row.kind));
            return row;
        });
    }

    private OAuthAdminView view(CredentialEntity row, CredentialOAuthEntity oauth) {
        OAuthAdminView view =
                OAuthAdminRules.view(StateRows.oauthStatus(row), row.oauthLastRefreshError, redaction(row, oauth));
        return view == null ? NOT_MANAGED : view;
    }

    /** Masks the access token (the credential's secret) and the refresh token in shown texts. */
    private UnaryOperator<String> redaction(CredentialEntity row, CredentialOAuthEntity oauth) {
        UnaryOperator<String> bySecret = redactor.forCredential(row);
        if (oauth == null || oauth.sealedRefreshToken == null) {
            return bySecret;
        }
        String refreshToken;
        try {
            refreshToken = secretBox.open(
                    CredentialOAuthEntity.refreshTokenBinding(row.id, row.platform), oauth.sealedRefreshToken);
        } catch (IllegalArgumentException unopenable) {
            return bySecret;
        }
        return text -> SecretMask.apply(bySecret.apply(text), refreshToken);
    }

    /** The time as PostgreSQL keeps it (microseconds), so an answer shows what a later read shows. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
