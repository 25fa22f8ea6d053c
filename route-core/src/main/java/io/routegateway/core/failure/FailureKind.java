package io.routegateway.core.failure;

import java.util.Locale;
import java.util.Optional;

/**
 * The nine labels of {@code last_failure_kind}: which step of the forwarding chain failed. The
 * wire form ({@link #label()}) is what the database, events and the admin API carry.
 */
public enum FailureKind {
    /** Refreshing an official credential's access token failed (judged transient). */
    REFRESH("refresh"),
    /** Building the upstream request failed (bridging, auth assembly, ...). */
    REQUEST_BUILD("request_build"),
    /** Could not send, could not read the body to completion, or the upstream stalled. */
    TRANSPORT("transport"),
    /** The upstream responded but the bridge's reverse conversion failed. */
    RESPONSE_TRANSFORM("response_transform"),
    /** The upstream returned a retryable non-2xx status. */
    UPSTREAM_STATUS("upstream_status"),
    /** Semantic failure on the transient-backoff route (failure body, truncated stream). */
    SEMANTIC_RESPONSE_TRANSIENT("semantic_response_transient"),
    /** Semantic failure on the fingerprint-streak route: the quota-exhaustion channel. */
    SEMANTIC_RESPONSE_FAILED("semantic_response_failed"),
    /** A model test received a non-2xx status. */
    MODEL_TEST_STATUS("model_test_status"),
    /** Any other retryable model-test failure (transport level). */
    MODEL_TEST("model_test");

    private final String label;

    FailureKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The kind for a stored label; empty for a label this version does not know. */
    public static Optional<FailureKind> fromLabel(String label) {
        if (label == null) {
            return Optional.empty();
        }
        String normalized = label.trim().toLowerCase(Locale.ROOT);
        for (FailureKind kind : values()) {
            if (kind.label.equals(normalized)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
