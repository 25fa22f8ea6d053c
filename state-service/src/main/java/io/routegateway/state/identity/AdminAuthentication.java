package io.routegateway.state.identity;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.access.AdminPath;
import io.routegateway.core.access.BearerToken;
import io.routegateway.core.identity.ApiTokenSecret;
import io.routegateway.core.identity.Principal;
import io.routegateway.core.identity.Role;
import io.routegateway.core.text.StorableText;
import io.routegateway.state.config.StateConfig;
import io.routegateway.state.repository.ApiTokenEntity;
import io.routegateway.state.repository.ApiTokenRepository;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.ApiError;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Every path under {@code /admin} needs {@code Authorization: Bearer <token>}: the bootstrap admin
 * token ({@code state.admin.token}, the break-glass admin, unless {@code state.admin.break-glass} is
 * false) or an API token ({@code /admin/v1/api-tokens}) that is neither expired nor revoked. It runs
 * before resource matching, so an unauthenticated caller learns nothing about which admin paths
 * exist; every spelling of the prefix counts ({@link AdminPath}). The bootstrap token is compared in
 * constant time ({@link BearerToken}); an API token is looked up by its SHA-256 and the digests
 * compared in constant time. What the principal may then do is {@link EndpointGuard}'s.
 *
 * <p>A presented token that is not valid (unknown, tampered, revoked, an SSO bearer that does not
 * verify, the bootstrap token while break-glass is off) counts as a failed sign-in of the caller's
 * address ({@link SignInThrottling}); an address over the limit is answered 429 before its token is
 * looked at. A missing header, an expired token and a verified SSO bearer without a role do not
 * count (they are no guess).
 */
public class AdminAuthentication {

    /** last_used_at is written at most this often per token. */
    static final Duration TOUCH_EVERY = Duration.ofMinutes(1);

    private static final String PREFIX = BearerToken.SCHEME + " ";

    private final String bootstrapToken;
    private final boolean breakGlass;
    private final ApiTokenRepository tokens;
    private final CurrentPrincipal current;
    private final Clock clock;
    private final SsoAuthentication sso;
    private final SignInThrottling throttling;

    AdminAuthentication(
            StateConfig config,
            ApiTokenRepository tokens,
            CurrentPrincipal current,
            Clock clock,
            SsoAuthentication sso,
            SignInThrottling throttling) {
        this.sso = sso;
        this.throttling = throttling;
        this.bootstrapToken = config.admin().token();
        this.breakGlass = config.admin().breakGlass();
        this.tokens = tokens;
        this.current = current;
        this.clock = clock;
    }

    @ServerRequestFilter(preMatching = true)
    public Uni<Response> authenticate(ContainerRequestContext request, HttpServerRequest http) {
        // the raw path and the decoded one: no spelling of /admin may reach a resource unchecked
        // (the router drops matrix parameters such as /admin;x or /admin%3B that a plain prefix test misses)
        if (!AdminPath.isAdmin(request.getUriInfo().getRequestUri().getRawPath())
                && !AdminPath.isAdmin(request.getUriInfo().getPath())) {
            return Uni.createFrom().nullItem();
        }
        String source = SignInThrottling.source(http);
        Response throttled = throttling.refusal(source);
        if (throttled != null) {
            return Uni.createFrom().item(throttled);
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        String requestId = requestId(request.getHeaderString("X-Request-Id"));
        if (breakGlass && BearerToken.check(header, bootstrapToken) == BearerToken.Check.VALID) {
            current.authenticated(Principal.breakGlass(), requestId);
            return Uni.createFrom().nullItem();
        }
        if (header == null || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return Uni.createFrom().item(unauthorized("the admin API needs Authorization: Bearer <token>"));
        }
        String presented = header.substring(PREFIX.length()).strip();
        if (!ApiTokenSecret.looksLikeToken(presented)) {
            if (sso.accepts(presented)) {
                return sso.authenticate(presented).map(result -> {
                    if (!result.verified()) {
                        return notValid(source);
                    }
                    if (!result.mapping().granted()) {
                        return ApiError.response(
                                403, AdminCodes.FORBIDDEN, result.mapping().refusal());
                    }
                    current.authenticated(result.mapping().principal(), requestId);
                    return null;
                });
            }
            return Uni.createFrom().item(notValid(source));
        }
        String hash = ApiTokenSecret.hash(presented);
        Instant now = clock.instant();
        return Panache.withTransaction(() -> tokens.findByHash(hash).flatMap(row -> {
            if (row == null || !ApiTokenSecret.sameHash(row.tokenHash, hash)) {
                return Uni.createFrom().item(notValid(source));
            }
            if (row.expiresAt != null && !now.isBefore(row.expiresAt)) {
                return Uni.createFrom().item(unauthorized("the token has expired"));
            }
            current.authenticated(principal(row), requestId);
            if (row.lastUsedAt != null && row.lastUsedAt.isAfter(now.minus(TOUCH_EVERY))) {
                return Uni.createFrom().<Response>nullItem();
            }
            return tokens.touch(row.id, now, now.minus(TOUCH_EVERY)).replaceWith((Response) null);
        }));
    }

    static Principal principal(ApiTokenEntity row) {
        Role role = Role.fromWire(row.role).orElseThrow();
        return new Principal(row.name, Principal.Via.API_TOKEN, role, role.teamScoped() ? row.teamId : null, row.id);
    }

    /** The caller's {@code X-Request-Id} when it is a short single line, otherwise a new one. */
    static String requestId(String sent) {
        if (sent != null && StorableText.isSingleLine(sent, 128) && !sent.isBlank()) {
            return sent.strip();
        }
        return UUID.randomUUID().toString();
    }

    /** The 401 of a token that is not valid, counted against its source. */
    private Response notValid(String source) {
        throttling.failed(source);
        return unauthorized("the token is not valid");
    }

    private static Response unauthorized(String message) {
        Response base = ApiError.response(401, AdminCodes.UNAUTHORIZED, message);
        return Response.fromResponse(base)
                .header(HttpHeaders.WWW_AUTHENTICATE, BearerToken.SCHEME)
                .build();
    }
}
