package io.routegateway.core.failure;

/**
 * The single classification of an upstream attempt, used by forwarding and by model tests alike.
 * Decision order:
 *
 * <p>The rule that guards the shared pool: <b>content a client controls is never evidence about a
 * credential.</b> A non-2xx status that is not a failure (400, 404, 422, 402, …) never becomes one,
 * whatever its body says: upstreams quote the request in those answers ("The model `X` does not
 * exist", "X: Extra inputs are not permitted", {@code Unknown name "X"}). On the statuses that do
 * speak about the credential, the quota and permanent markers (on every other non-2xx status the
 * permanent markers alone) are read only from the upstream's
 * own error fields ({@code message}, {@code code}, {@code type}, {@code error_description}; the raw
 * text when the body is not JSON), and a marker that also appears in what the client sent ({@link
 * ClientEcho}) is not evidence: the attempt then counts by its status alone.
 *
 * <ol>
 *   <li>no status: transport failure ({@code transport} / {@code model_test}), permanent if the
 *       error text names a void credential the client did not name;
 *   <li>a non-2xx status other than 408/401/403/429/5xx: permanent when the upstream's own error
 *       fields carry a permanent marker the client did not send (relays answer a revoked key
 *       with 400 too), otherwise not a failure, whatever else the body says;
 *   <li>quota exhaustion in the error fields (401/403 included; on 2xx only inside a structural
 *       failure): the deterministic verdict beats the status code;
 *   <li>permanent text in the error fields (on 2xx only inside a structural failure, so a
 *       generation that merely mentions {@code invalid_grant} is not a revocation);
 *   <li>status: 408/401/403/429/5xx transient with message {@code upstream returned N};
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

    /** Classifies an attempt whose request carried no client text (tests, fixed probes). */
    public static Verdict classify(UpstreamOutcome outcome) {
        return classify(outcome, ClientEcho.NONE);
    }

    /**
     * @param echo what the client sent in this attempt's request; consulted only when a marker
     *     matched
     */
    public static Verdict classify(UpstreamOutcome outcome, ClientEcho echo) {
        Integer status = outcome.status();
        if (status == null) {
            return transport(outcome, null, echo);
        }
        if (!FailureClassifier.isSuccess(status)) {
            return classifyErrorStatus(status, outcome, echo);
        }
        return classifySuccessStatus(status, outcome, echo);
    }

    private static Verdict classifyErrorStatus(int status, UpstreamOutcome outcome, ClientEcho echo) {
        String body = outcome.body();
        ErrorFields fields = ErrorFields.fromErrorBody(body);
        if (!FailureClassifier.speaksAboutCredential(status)) {
            // Relays answer a revoked key with 400 too. A permanent marker in the upstream's own
            // error fields that the client did not send is the credential's; anything else in a
            // 400-class answer is the client's request quoted back.
            if (FailureClassifier.isPermanentEvidence(echo, fields.texts())) {
                return new Verdict.Permanent(
                        FailureClassifier.kindFor(status, outcome.modelTest()),
                        status,
                        firstNonNull(fields.message(), synthesized(status)),
                        body);
            }
            return new Verdict.NotAFailure(status);
        }
        if (QuotaExhaustion.matches(fields.code(), fields.type(), fields.message(), echo)) {
            return new Verdict.QuotaExhausted(
                    status, firstNonNull(fields.message(), fields.code(), synthesized(status)), body);
        }
        FailureKind kind = FailureClassifier.kindFor(status, outcome.modelTest());
        if (FailureClassifier.isPermanentEvidence(echo, fields.texts())
                || FailureClassifier.isPermanentEvidence(echo, outcome.transportError())) {
            return new Verdict.Permanent(kind, status, firstNonNull(fields.message(), synthesized(status)), body);
        }
        return new Verdict.Transient(
                kind, status, synthesized(status), body, FailureClassifier.shouldRetrySameCredentialStatus(status));
    }

    private static Verdict classifySuccessStatus(int status, UpstreamOutcome outcome, ClientEcho echo) {
        String body = outcome.body();
        SemanticResult semantic = SemanticFailureDetector.detect(body);
        if (semantic instanceof SemanticResult.Failure failure) {
            if (QuotaExhaustion.matches(failure, echo)) {
                return new Verdict.QuotaExhausted(status, failure.message(), body);
            }
            if (FailureClassifier.isPermanentEvidence(
                    echo, failure.message(), failure.errorCode(), failure.errorType())) {
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
                return transport(outcome, status, echo);
            }
            return semanticTransient(status, StreamCompletion.DISCONNECTED_MESSAGE, body);
        }
        if (outcome.transportError() != null) {
            return transport(outcome, status, echo);
        }
        return Verdict.SUCCESS;
    }

    private static Verdict transport(UpstreamOutcome outcome, Integer status, ClientEcho echo) {
        String text = outcome.transportError();
        String message = text == null || text.isBlank() ? TRANSPORT_FALLBACK_MESSAGE : text;
        FailureKind kind = FailureClassifier.kindFor(null, outcome.modelTest());
        if (FailureClassifier.isPermanentEvidence(echo, text)) {
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
