package io.routegateway.core.event;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Type {@code lease.v1} on {@link Topics#ADMISSIONS}: how gateway replicas share what they admit,
 * so a team's limit is the team's limit however many replicas serve it. Every replica reads every
 * partition of the topic and folds its peers' records beside its own (its own carry its {@link
 * Topics#ORIGIN_HEADER} and are skipped on reading, having been applied when made).
 *
 * <p>A {@link Kind#REQUEST} lease is one admitted client request of an AccessKey (and its team): it
 * counts toward their requests per minute when {@link Phase#OPENED}, holds one parallel slot until
 * {@link Phase#CLOSED} or {@code expires_at}, whichever is first, and reserves {@code
 * reserved_tokens} of the tokens per minute until its close settles the real count. An {@link
 * Kind#ATTEMPT} lease is one upstream attempt on a credential, for the credential's own limits. A
 * holder renews a lease that outlives a third of its term ({@link Phase#RENEWED}, a later {@code
 * expires_at}); a replica that dies stops renewing, so its slots free themselves at expiry.
 *
 * @param leaseId one per lease; its phases share it
 * @param origin the replica that holds the lease
 * @param at when this phase happened, on the holder's clock
 * @param expiresAt when the slot frees itself if no later phase arrives (OPENED, RENEWED)
 * @param reservedTokens tokens held against {@code tpm_limit} while the request runs (OPENED)
 * @param settledTokens input + output tokens as settled by the request's usage record (CLOSED;
 *     null = unknown, the reservation stands for the minute)
 * @param costMicros the request's cost in micro-USD (CLOSED; null = unpriced)
 */
public record LeaseEvent(
        UUID leaseId,
        String origin,
        Kind kind,
        Phase phase,
        String accessKeyId,
        String teamId,
        String credentialId,
        Instant at,
        Instant expiresAt,
        long reservedTokens,
        Long settledTokens,
        Long costMicros) {

    public static final String TYPE = "lease.v1";

    public enum Kind {
        REQUEST,
        ATTEMPT
    }

    public enum Phase {
        OPENED,
        RENEWED,
        CLOSED
    }

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }
}
