package io.routegateway.core.forward;

import io.routegateway.core.bridge.Bridge;
import io.routegateway.core.bridge.BridgeError;
import io.routegateway.core.bridge.ErrorReply;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;

/**
 * A gateway refusal in the client protocol's own error envelope, with the HTTP status the SDKs
 * choose their exception class by, so the client's SDK raises the API error it would for the
 * vendor's own answer; the gateway's code is always in it, for operators to grep.
 *
 * <p>The envelope is written by the client protocol's codec ({@link
 * io.routegateway.core.bridge.ProtocolCodec#encodeError}), the same writer that re-shapes a bridged
 * upstream's error: a refusal and an upstream error of one status carry the same type or status
 * name and go out with the same HTTP status, whoever answered.
 *
 * <ul>
 *   <li>OpenAI Chat / Responses (and requests of no protocol): {@code {"error":{"message","type",
 *       "param":null,"code"}}}, {@code type} the gateway's error type; 529 goes out as 503;
 *   <li>Anthropic Messages: {@code {"type":"error","error":{"type","message","code"}}}, {@code type}
 *       Anthropic's own for the status ({@code invalid_request_error}, {@code authentication_error},
 *       {@code permission_error}, {@code not_found_error}, {@code request_too_large}, {@code
 *       rate_limit_error}, {@code api_error}, {@code timeout_error} for 504, {@code
 *       overloaded_error} for 503 and 529);
 *   <li>Gemini: {@code {"error":{"code":<http status>,"message","status","details":[{"@type":
 *       "type.googleapis.com/google.rpc.ErrorInfo","reason":<code>,"domain":"route-gateway"}]}}}
 *       ({@code status} the google.rpc code name for the status, {@code DEADLINE_EXCEEDED} for 504,
 *       the gateway's code in {@code ErrorInfo.reason}); 529 goes out as 503
 * </ul>
 */
public final class ErrorEnvelope {

    private ErrorEnvelope() {}

    /**
     * A refusal: the status to answer with (the one asked for, save 529 outside Anthropic) and the
     * envelope.
     *
     * @param protocol the client's protocol; null: the OpenAI shape
     * @param status the HTTP status the refusal stands for
     * @param code the gateway's code ({@code invalid_model}, {@code route_pool.model_unmatched}…)
     * @param type the gateway's error type, used as such in the OpenAI shape
     */
    public static ErrorReply refusal(Protocol protocol, int status, String code, String message, String type) {
        Protocol shape = protocol == null ? Protocol.OPENAI_CHAT : protocol;
        return Bridge.codec(shape).encodeError(BridgeError.refusal(status, code, message, type));
    }

    /** A routing refusal's envelope (its code's status, endpoint-level {@code operation_unsupported} included). */
    public static String of(Protocol protocol, ReasonCode code, String message) {
        return of(protocol, code.httpStatus(), code.wire(), message, code.errorType());
    }

    /**
     * The envelope of {@link #refusal}, as text. The status to answer with is {@link #refusal}'s
     * (they differ only for 529 outside Anthropic).
     */
    public static String of(Protocol protocol, int status, String code, String message, String type) {
        return refusal(protocol, status, code, message, type).body().toString();
    }
}
