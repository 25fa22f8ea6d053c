package io.routegateway.core.load;

import io.routegateway.core.forward.Refusal;

/**
 * A replica's guard against more work than it can hold, whoever sends it: at most {@code
 * maxConcurrentRequests} forwarded requests in progress (a stream counts until it ends) and at most
 * {@code maxInFlightBodyBytes} of their bodies held, each checked when a request's headers have
 * arrived and its key is known. Past either, the request is shed: 503 {@code gateway_overloaded}
 * with {@code Retry-After}, in the client's protocol, before its body is read or anything is sent
 * upstream — an answer about this replica, never about a credential (no outcome is recorded, nothing
 * cools). Keys' own limits ({@code limits/}) share the pool fairly between teams; this bounds what
 * one replica takes on, so a burst that gets past them (or a key without limits) cannot exhaust its
 * memory. Pure.
 */
public final class LoadShedding {

    public static final String GATEWAY_OVERLOADED = "gateway_overloaded";
    /** Seconds a shed client is asked to wait: load passes in moments, and another replica may serve it. */
    public static final int RETRY_AFTER_SECONDS = 1;

    /**
     * @param maxConcurrentRequests forwarded requests in progress on the replica
     * @param maxInFlightBodyBytes bodies of those requests, by their declared length
     */
    public record Caps(int maxConcurrentRequests, long maxInFlightBodyBytes) {
        public Caps {
            if (maxConcurrentRequests < 1 || maxInFlightBodyBytes < 1) {
                throw new IllegalArgumentException("load caps must be positive");
            }
        }
    }

    /** Why a request was shed; null when it was not. */
    public enum Shed {
        CONCURRENT_REQUESTS("concurrent_requests"),
        IN_FLIGHT_BODY_BYTES("in_flight_body_bytes");

        private final String label;

        Shed(String label) {
            this.label = label;
        }

        /** The metric label. */
        public String label() {
            return label;
        }
    }

    private LoadShedding() {}

    /**
     * Whether one more request fits beside those in progress. A body larger than the whole byte
     * budget is taken when no other body is held (the body limit bounds it, and it would never fit
     * otherwise); beside others it waits its turn like any.
     *
     * @param inProgress requests in progress, not counting this one
     * @param bodyBytesHeld bodies of those requests
     * @param bodyBytes this request's declared body length, 0 when not declared
     * @return null to admit, else why it is shed
     */
    public static Shed decide(Caps caps, int inProgress, long bodyBytesHeld, long bodyBytes) {
        if (inProgress >= caps.maxConcurrentRequests()) {
            return Shed.CONCURRENT_REQUESTS;
        }
        if (bodyBytesHeld > 0 && bodyBytesHeld + bodyBytes > caps.maxInFlightBodyBytes()) {
            return Shed.IN_FLIGHT_BODY_BYTES;
        }
        return null;
    }

    /** The 503 a shed request gets, saying which cap; nothing about other clients. */
    public static Refusal refusal(Shed shed) {
        String message = shed == Shed.CONCURRENT_REQUESTS
                ? "This gateway replica is at its limit of concurrent requests; retry shortly"
                : "This gateway replica holds as many request bodies as it may; retry shortly";
        return new Refusal(503, GATEWAY_OVERLOADED, message, "server_error");
    }
}
