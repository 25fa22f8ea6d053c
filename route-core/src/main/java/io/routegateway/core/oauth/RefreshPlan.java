package io.routegateway.core.oauth;

import java.time.Duration;
import java.time.Instant;

import io.routegateway.core.failure.FailureClassifier;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.model.Platform;

/** The pure decisions of the token lifecycle: when to refresh, what a refresh answer means. */
public final class RefreshPlan {

    private RefreshPlan() {}

    /**
     * Whether the credential's access token is due for a refresh at {@code now}: a 401 asked for one
     * ({@code refreshDueAt} set and reached), or the token expires within {@code lead}. A token
     * without a known expiry is refreshed only when asked.
     */
    public static boolean isDue(Instant now, Instant accessExpiresAt, Duration lead, Instant refreshDueAt) {
        if (refreshDueAt != null && !refreshDueAt.isAfter(now)) {
            return true;
        }
        return accessExpiresAt != null && !accessExpiresAt.minus(lead).isAfter(now);
    }

    /** Whether an authorized access token is past its expiry at {@code now} (then state {@code expired}). */
    public static boolean isExpired(Instant now, Instant accessExpiresAt) {
        return accessExpiresAt != null && !accessExpiresAt.isAfter(now);
    }

    /**
     * Whether an upstream 401 that occurred at {@code occurredAt} is about the token held now, which
     * was issued at {@code tokenIssuedAt}: only then does it ask for a refresh (a 401 about an older
     * token is already answered by the newer one).
     */
    public static boolean asksForRefresh(Integer status, Instant tokenIssuedAt, Instant occurredAt) {
        return status != null
                && status == 401
                && tokenIssuedAt != null
                && occurredAt != null
                && tokenIssuedAt.isBefore(occurredAt);
    }

    /**
     * When the next refresh may be tried after {@code failures} consecutive transient failures (at
     * least 1): {@code backoff} doubled per further failure, capped at {@code maxBackoff}.
     */
    public static Instant nextAttempt(Instant now, int failures, Duration backoff, Duration maxBackoff) {
        int doublings = Math.max(0, Math.min(failures, 31) - 1);
        Duration wait = backoff;
        for (int i = 0; i < doublings && wait.compareTo(maxBackoff) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return now.plus(wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait);
    }

    /** What a refresh answer means for the credential. */
    public sealed interface Result permits Refreshed, Transient, Permanent {}

    /** New material (merged with the held one: unrotated refresh tokens and account ids are kept). */
    public record Refreshed(OAuthMaterial material) implements Result {}

    /** Any failure without a permanent marker: the {@code refresh} label, account scope, cooldown. */
    public record Transient(Integer status, String message) implements Result {
        public String kind() {
            return FailureKind.REFRESH.label();
        }
    }

    /** A permanent marker ({@code invalid_grant}, …): the account is revoked, never recovered automatically. */
    public record Permanent(Integer status, String message) implements Result {
        public String kind() {
            return FailureKind.REFRESH.label();
        }
    }

    /** Classifies a refresh answer with the route-core permanent-marker rule. */
    public static Result classify(OAuthMaterial held, TokenResponse response) {
        if (response instanceof TokenResponse.Tokens tokens) {
            return new Refreshed(held == null ? tokens.material() : OAuthMaterial.merge(held, tokens.material()));
        }
        TokenResponse.Failure failure = (TokenResponse.Failure) response;
        String message = message(failure);
        if (failure.status() != null && FailureClassifier.isPermanentText(String.join(" ", nonNull(failure.texts())))) {
            return new Permanent(failure.status(), message);
        }
        return new Transient(failure.status(), message);
    }

    /** {@link #classify} of a raw answer ({@code status} null: no answer, {@code body} the transport error). */
    public static Result classify(
            Platform platform, OAuthMaterial held, Integer status, String body, Instant receivedAt) {
        TokenResponse response = status == null
                ? TokenResponse.transport(body)
                : TokenResponse.parse(platform, status, body, receivedAt);
        return classify(held, response);
    }

    /** Parses an authorization-code exchange answer. */
    public static TokenResponse parse(Platform platform, Integer status, String body, Instant receivedAt) {
        return status == null ? TokenResponse.transport(body) : TokenResponse.parse(platform, status, body, receivedAt);
    }

    private static String message(TokenResponse.Failure failure) {
        String head =
                failure.status() == null ? "token endpoint unreachable" : "token endpoint returned " + failure.status();
        StringBuilder text = new StringBuilder(head);
        if (failure.error() != null) {
            text.append(": ").append(failure.error());
        }
        if (failure.description() != null) {
            text.append(failure.error() != null ? " (" : ": ").append(failure.description());
            if (failure.error() != null) {
                text.append(')');
            }
        }
        return text.toString();
    }

    private static String[] nonNull(String[] texts) {
        return java.util.Arrays.stream(texts).map(t -> t == null ? "" : t).toArray(String[]::new);
    }
}
