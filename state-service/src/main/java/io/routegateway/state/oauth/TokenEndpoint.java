package io.routegateway.state.oauth;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.failure.SecretMask;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.OAuthMaterial;
import io.routegateway.core.oauth.RefreshPlan;
import io.routegateway.core.oauth.TokenRequest;
import io.routegateway.core.oauth.TokenResponse;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.core.http.HttpClientResponse;
import org.jboss.logging.Logger;

/**
 * Calls a platform's OAuth token endpoint ({@code route.oauth.<platform>.token-url}): the {@code
 * refresh_token} grant of the refresher and the {@code authorization_code} grant of onboarding.
 * Every call is bounded by {@code route.oauth.http-timeout} and never fails its {@link Uni}: a
 * refused connection, a timeout or a missing configuration is a transient answer (the {@code
 * refresh} label), classified by route-core {@link RefreshPlan}.
 *
 * <p>Request and answer bodies carry refresh tokens, codes and verifiers: they are never logged,
 * and a failure message that quotes a token sent or held is masked before it leaves this class.
 * Uses the Quarkus-managed Vert.x core HTTP client (no extra client dependency).
 */
@ApplicationScoped
public class TokenEndpoint {

    private static final Logger LOG = Logger.getLogger(TokenEndpoint.class);

    /** Longest answer kept: token answers are a few kilobytes. */
    static final int MAX_ANSWER_BYTES = 64 * 1024;

    private final OAuthConfig config;
    private final Clock clock;
    private final HttpClient client;

    TokenEndpoint(Vertx vertx, OAuthConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout(millis(config.httpTimeout()))
                .setKeepAlive(true)
                .setVerifyHost(true));
    }

    @PreDestroy
    void close() {
        client.closeAndForget();
    }

    /**
     * Exchanges the held refresh token for new material (merged with the held one: an unrotated
     * refresh token or an omitted account id is kept).
     */
    public Uni<RefreshPlan.Result> refresh(Platform platform, OAuthMaterial held) {
        OAuthConfig.PlatformOAuth settings = config.of(platform).orElse(null);
        Optional<String> missing = missingConfiguration(platform, settings);
        if (missing.isPresent()) {
            return Uni.createFrom().item(new RefreshPlan.Transient(null, missing.get()));
        }
        if (held == null || !held.hasRefreshToken()) {
            return Uni.createFrom().item(new RefreshPlan.Transient(null, "no refresh token held"));
        }
        TokenRequest request = TokenRequest.refresh(
                platform,
                settings.clientId().orElse(null),
                settings.clientSecret().orElse(null),
                settings.scopes().orElse(null),
                held.refreshToken());
        Secrets secrets = new Secrets(
                held.refreshToken(), held.accessToken(), settings.clientSecret().orElse(null));
        return post(platform, settings.tokenUrl().orElseThrow(), request)
                .map(answer -> masked(
                        RefreshPlan.classify(platform, held, answer.status(), answer.body(), receivedAt()), secrets));
    }

    /** Exchanges an authorization code (with its PKCE verifier) for the account's first material. */
    public Uni<TokenResponse> exchangeCode(
            Platform platform, String code, String verifier, String redirectUri, String state) {
        OAuthConfig.PlatformOAuth settings = config.of(platform).orElse(null);
        Optional<String> missing = missingConfiguration(platform, settings);
        if (missing.isPresent()) {
            return Uni.createFrom().item(new TokenResponse.Failure(null, null, missing.get()));
        }
        TokenRequest request = TokenRequest.exchangeCode(
                platform,
                settings.clientId().orElse(null),
                settings.clientSecret().orElse(null),
                code,
                verifier,
                redirectUri,
                state);
        Secrets secrets = new Secrets(code, verifier, settings.clientSecret().orElse(null));
        return post(platform, settings.tokenUrl().orElseThrow(), request)
                .map(answer ->
                        masked(RefreshPlan.parse(platform, answer.status(), answer.body(), receivedAt()), secrets));
    }

    /**
     * When an answer arrived, to the second: expiries are {@code expires_in} seconds from it, and an
     * instant finer than the database keeps would publish another expiry than the one stored.
     */
    private Instant receivedAt() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }

    private static Optional<String> missingConfiguration(Platform platform, OAuthConfig.PlatformOAuth settings) {
        if (settings == null
                || settings.tokenUrl().filter(url -> !url.isBlank()).isEmpty()
                || settings.clientId().filter(id -> !id.isBlank()).isEmpty()) {
            return Optional.of("no token endpoint configured for " + platform.wire() + " (route.oauth."
                    + platform.wire() + ".token-url and .client-id)");
        }
        return Optional.empty();
    }

    /** One answer: status null when none came (then {@code body} says why, without request content). */
    private record Answer(Integer status, String body) {}

    private Uni<Answer> post(Platform platform, String url, TokenRequest request) {
        Duration timeout = config.httpTimeout();
        RequestOptions options;
        try {
            options = new RequestOptions()
                    .setMethod(HttpMethod.POST)
                    .setAbsoluteURI(url)
                    .setIdleTimeout(millis(timeout))
                    .putHeader("content-type", request.contentType())
                    .putHeader("accept", "application/json");
        } catch (RuntimeException e) {
            return Uni.createFrom()
                    .item(new Answer(null, "the token endpoint URL of " + platform.wire() + " is not valid"));
        }
        return client.request(options)
                .flatMap(sent -> sent.send(Buffer.buffer(request.body())))
                .flatMap(response -> read(response).map(body -> new Answer(response.statusCode(), body)))
                .ifNoItem()
                .after(timeout)
                .failWith(() -> new TimeoutException("no answer within " + timeout.toSeconds() + " s"))
                .invoke(answer -> LOG.debugf("token endpoint of %s answered %d", platform.wire(), answer.status()))
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.debugf("token endpoint of %s unreachable: %s", platform.wire(), describe(failure));
                    return new Answer(null, describe(failure));
                });
    }

    /** The answer's body, cut at {@link #MAX_ANSWER_BYTES} (a longer one no longer parses). */
    private static Uni<String> read(HttpClientResponse response) {
        return response.body().map(body -> {
            byte[] bytes = body.getBytes();
            int kept = Math.min(bytes.length, MAX_ANSWER_BYTES);
            return new String(bytes, 0, kept, StandardCharsets.UTF_8);
        });
    }

    /** A transport failure in words: the exception's type and message, never request content. */
    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        String type = failure.getClass().getSimpleName();
        return message == null || message.isBlank() ? type : type + ": " + message;
    }

    /** What must never appear in a failure message that leaves this class. */
    private record Secrets(String first, String second, String third) {

        String mask(String text) {
            return SecretMask.apply(SecretMask.apply(SecretMask.apply(text, first), second), third);
        }
    }

    private static RefreshPlan.Result masked(RefreshPlan.Result result, Secrets secrets) {
        if (result instanceof RefreshPlan.Transient failure) {
            return new RefreshPlan.Transient(failure.status(), secrets.mask(failure.message()));
        }
        if (result instanceof RefreshPlan.Permanent failure) {
            return new RefreshPlan.Permanent(failure.status(), secrets.mask(failure.message()));
        }
        return result;
    }

    private static TokenResponse masked(TokenResponse response, Secrets secrets) {
        if (response instanceof TokenResponse.Failure failure) {
            return new TokenResponse.Failure(
                    failure.status(), secrets.mask(failure.error()), secrets.mask(failure.description()));
        }
        return response;
    }

    private static int millis(Duration duration) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, duration.toMillis()));
    }
}
