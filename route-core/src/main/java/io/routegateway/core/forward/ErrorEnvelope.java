package io.routegateway.core.forward;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;

/**
 * A gateway refusal in the client protocol's own error envelope, with the HTTP status the SDKs
 * choose their exception class by, so the client's SDK raises the API error it would for the
 * vendor's own answer; the gateway's code is always in it, for operators to grep:
 *
 * <ul>
 *   <li>OpenAI Chat / Responses (and requests of no protocol): {@code {"error":{"message","type",
 *       "param":null,"code"}}}, {@code type} the gateway's error type;
 *   <li>Anthropic Messages: {@code {"type":"error","error":{"type","message","code"}}}, {@code type}
 *       Anthropic's own for the status ({@code invalid_request_error}, {@code authentication_error},
 *       {@code permission_error}, {@code not_found_error}, {@code request_too_large}, {@code
 *       rate_limit_error}, {@code timeout_error}, {@code api_error}, {@code overloaded_error});
 *   <li>Gemini: {@code {"error":{"code":<http status>,"message","status","details":[{"@type":
 *       "type.googleapis.com/google.rpc.ErrorInfo","reason":<code>,"domain":"route-gateway"}]}}}
 *       ({@code status} the google.rpc code name for the status, the gateway's code in {@code
 *       ErrorInfo.reason})
 * </ul>
 */
public final class ErrorEnvelope {

    static final String ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";
    static final String DOMAIN = "route-gateway";

    private ErrorEnvelope() {}

    /** A routing refusal (its code's status, endpoint-level {@code operation_unsupported} included). */
    public static String of(Protocol protocol, ReasonCode code, String message) {
        return of(protocol, code.httpStatus(), code.wire(), message, code.errorType());
    }

    /**
     * @param protocol the client's protocol; null: the OpenAI shape
     * @param status the HTTP status the refusal is answered with
     * @param code the gateway's code ({@code invalid_model}, {@code route_pool.model_unmatched}…)
     * @param type the gateway's error type, used as such in the OpenAI shape
     */
    public static String of(Protocol protocol, int status, String code, String message, String type) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        if (protocol == Protocol.ANTHROPIC_MESSAGES) {
            root.put("type", "error");
            ObjectNode error = root.putObject("error");
            error.put("type", anthropicType(status));
            error.put("message", message);
            error.put("code", code);
        } else if (protocol == Protocol.GEMINI) {
            ObjectNode error = root.putObject("error");
            error.put("code", status);
            error.put("message", message);
            error.put("status", geminiStatus(status, code));
            error.putArray("details")
                    .addObject()
                    .put("@type", ERROR_INFO_TYPE)
                    .put("reason", code)
                    .put("domain", DOMAIN);
        } else {
            ObjectNode error = root.putObject("error");
            error.put("message", message);
            error.put("type", type);
            error.putNull("param");
            error.put("code", code);
        }
        return root.toString();
    }

    /** Anthropic's error type for an HTTP status (the Anthropic SDKs pick the exception by status). */
    static String anthropicType(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 402 -> "billing_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 408, 504 -> "timeout_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> status >= 400 && status < 500 ? "invalid_request_error" : "api_error";
        };
    }

    /** The google.rpc status name Gemini answers an HTTP status with. */
    static String geminiStatus(int status, String code) {
        if (ReasonCode.OPERATION_UNSUPPORTED.wire().equals(code) && status >= 500) {
            return "UNIMPLEMENTED";
        }
        return switch (status) {
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 408, 504 -> "DEADLINE_EXCEEDED";
            case 409 -> "ABORTED";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 499 -> "CANCELLED";
            case 501 -> "UNIMPLEMENTED";
            case 502, 503 -> "UNAVAILABLE";
            default -> status >= 400 && status < 500 ? "INVALID_ARGUMENT" : "INTERNAL";
        };
    }
}
