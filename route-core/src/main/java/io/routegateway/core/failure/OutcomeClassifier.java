package io.routegateway.core.failure;

/**
 * The single classification of an upstream attempt, used by forwarding and by model tests alike.
 * Decision order:
 *
 * <ol>
 *   <li>no status: transport failure ({@code transport} / {@code model_test}), permanent if the
 *       error text names a void credential;
 *   <li>quota exhaustion on the body (any non-2xx body, 401/403 included; on 2xx only inside a
 *       structural failure): the deterministic verdict beats the status code;
 *   <li>permanent text (on a non-2xx body; on 2xx only inside a structural failure, so a
 *       generation that merely mentions {@code invalid_grant} is not a revocation);
 *   <li>status: 408/401/403/429/5xx transient with message {@code upstream returned N}, other
 *       non-2xx not a failure;
 *   <li>2xx: a structural failure body is {@code semantic_response_transient} with the upstream's
 *       message; a stream without a terminal marker is {@code semantic_response_transient} with
 *       {@link StreamCompletion#DISCONNECTED_MESSAGE} (a stream that broke before its first byte is
 *       a transport failure); a non-streamed body that could not be read to completion is a
 *       transport failure;
 *   <li>everything else is a success.
 * </ol>
 */
public final class OutcomeClassifier {

    static final String TRANSPORT_FALLBACK_MESSAGE = "transport failure";

    private OutcomeClassifier() {}

    public static Verdict classify(UpstreamOutcome outcome) {
        Integer status = outcome.status();
        if (status == null) {
            return transport(outcome, null);
        }
        if (!FailureClassifier.isSuccess(status)) {
            return classifyErrorStatus(status, outcome);
        }
        return classifySuccessStatus(status, outcome);
    }

    private static Verdict classifyErrorStatus(int status, UpstreamOutcome outcome) {
        String body = outcome.body();
        ErrorFields fields = ErrorFields.fromErrorBody(body);
        if (QuotaExhaustion.matches(fields.code(), fields.type(), fields.message())) {
            return new Verdict.QuotaExhausted(
                    status, firstNonNull(fields.message(), fields.code(), synthesized(status)), body);
        }
        FailureKind kind = FailureClassifier.kindFor(status, outcome.modelTest());
        if (FailureClassifier.isPermanentText(body) || FailureClassifier.isPermanentText(outcome.transportError())) {
            return new Verdict.Permanent(kind, status, firstNonNull(fields.message(), synthesized(status)), body);
        }
        if (FailureClassifier.classifyStatus(status) == FailureClass.TRANSIENT) {
            return new Verdict.Transient(
                    kind, status, synthesized(status), body, FailureClassifier.shouldRetrySameCredentialStatus(status));
        }
        return new Verdict.NotAFailure(status);
    }

    private static Verdict classifySuccessStatus(int status, UpstreamOutcome outcome) {
        String body = outcome.body();
        SemanticResult semantic = SemanticFailureDetector.detect(body);
        if (semantic instanceof SemanticResult.Failure failure) {
            if (QuotaExhaustion.matches(failure)) {
                return new Verdict.QuotaExhausted(status, failure.message(), body);
            }
            if (FailureClassifier.isPermanentText(failure.message())
                    || FailureClassifier.isPermanentText(failure.rawSnippet())) {
                return new Verdict.Permanent(
                        FailureClassifier.kindFor(status, outcome.modelTest()), status, failure.message(), body);
            }
            return semanticTransient(status, failure.message(), body);
        }
        boolean nothingReceived = body == null || body.isEmpty();
        if (outcome.streamed()) {
            if (outcome.terminalMarkerSeen()) {
                return Verdict.SUCCESS;
            }
            if (outcome.transportError() != null && nothingReceived) {
                return transport(outcome, status);
            }
            return semanticTransient(status, StreamCompletion.DISCONNECTED_MESSAGE, body);
        }
        if (outcome.transportError() != null) {
            return transport(outcome, status);
        }
        return Verdict.SUCCESS;
    }

    private static Verdict transport(UpstreamOutcome outcome, Integer status) {
        String text = outcome.transportError();
        String message = text == null || text.isBlank() ? TRANSPORT_FALLBACK_MESSAGE : text;
        FailureKind kind = FailureClassifier.kindFor(null, outcome.modelTest());
        if (FailureClassifier.isPermanentText(text)) {
            return new Verdict.Permanent(kind, status, message, outcome.body());
        }
        // Connection-level trouble says nothing about auth: the same credential may be retried.
        return new Verdict.Transient(kind, status, message, outcome.body(), true);
    }

    /**
     * A 2xx failure switches credentials at once: {@code should_retry_same_credential_status} is
     * false for every success status.
     */
    private static Verdict semanticTransient(int status, String message, String body) {
        return new Verdict.Transient(
                FailureKind.SEMANTIC_RESPONSE_TRANSIENT,
                status,
                message,
                body,
                FailureClassifier.shouldRetrySameCredentialStatus(status));
    }

    /** The stored message of a status failure; the upstream's wording stays in the body. */
    public static String synthesized(int status) {
        return "upstream returned " + status;
    }

    private static String firstNonNull(String... values) {
        for (String value : values) {
            if (value != null) {
                return value;
            }
        }
        return null;
    }
}
