package io.routegateway.core.forward;

import io.routegateway.core.select.ReasonCode;

/**
 * A request the gateway answers itself, before or after routing: the HTTP status, the gateway's
 * code, the message and the OpenAI error type. Written in the client protocol's envelope by one
 * writer ({@link ErrorEnvelope}).
 */
public record Refusal(int status, String code, String message, String type) {

    public static final String INVALID_REQUEST_ERROR = "invalid_request_error";
    public static final String INTERNAL_ERROR = "internal_error";
    public static final String UPSTREAM_RESPONSE_TOO_LARGE = "upstream_response_too_large";

    /** A refusal with its reason code's status and type. */
    public static Refusal of(ReasonCode code, String message) {
        return new Refusal(code.httpStatus(), code.wire(), message, code.errorType());
    }

    /** A 400 for a request the client must change. */
    public static Refusal badRequest(String code, String message) {
        return new Refusal(400, code, message, INVALID_REQUEST_ERROR);
    }

    /**
     * The request tried as many credentials as it may ({@code gateway.retry.max-credentials}).
     *
     * @param lastFailure "; last failure: …" or empty, already fit for the client
     */
    public static Refusal gaveUp(int credentials, String lastFailure) {
        ReasonCode code = ReasonCode.NO_AVAILABLE_CREDENTIAL;
        return of(code, code.meaning() + ": gave up after " + credentials + " credentials" + lastFailure);
    }

    /**
     * The upstream's answer passed {@code gateway.upstream.max-response-size}: 502, nothing retried
     * (another credential would answer the same request as largely), nothing recorded for the
     * credential (the size of an answer is no evidence about it).
     */
    public static Refusal upstreamTooLarge(long maxResponseBytes) {
        return new Refusal(
                502,
                UPSTREAM_RESPONSE_TOO_LARGE,
                "the upstream's answer exceeds " + maxResponseBytes
                        + " bytes (gateway.upstream.max-response-size); ask for a streamed answer or a smaller one",
                "api_error");
    }

    /** The gateway itself failed before anything reached the client. */
    public static Refusal internalError() {
        return new Refusal(500, INTERNAL_ERROR, "the gateway failed to forward the request", "api_error");
    }
}
