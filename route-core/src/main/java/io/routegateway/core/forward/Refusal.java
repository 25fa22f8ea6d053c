package io.routegateway.core.forward;

import io.routegateway.core.select.ReasonCode;

/**
 * A request the gateway answers itself, before or after routing: the HTTP status, the gateway's
 * code, the message and the OpenAI error type. Written in the client protocol's envelope by one
 * writer ({@link ErrorEnvelope}).
 */
public record Refusal(int status, String code, String message, String type) {

    public static final String INVALID_REQUEST_ERROR = "invalid_request_error";

    /** A refusal with its reason code's status and type. */
    public static Refusal of(ReasonCode code, String message) {
        return new Refusal(code.httpStatus(), code.wire(), message, code.errorType());
    }

    /** A 400 for a request the client must change. */
    public static Refusal badRequest(String code, String message) {
        return new Refusal(400, code, message, INVALID_REQUEST_ERROR);
    }
}
