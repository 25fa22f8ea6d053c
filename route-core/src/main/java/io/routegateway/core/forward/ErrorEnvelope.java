package io.routegateway.core.forward;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;

/**
 * A gateway refusal in the client protocol's own error envelope, so the client's SDK parses it as
 * an API error; the reason code is always in it:
 *
 * <ul>
 *   <li>OpenAI Chat / Responses: {@code {"error":{"message","type","param":null,"code"}}}
 *   <li>Anthropic Messages: {@code {"type":"error","error":{"type","message","code"}}}
 *   <li>Gemini: {@code {"error":{"code":<http status>,"message","status","details":[{"@type":
 *       "type.googleapis.com/google.rpc.ErrorInfo","reason":<code>,"domain":"route-gateway"}]}}}
 *       (Gemini's {@code code} is the HTTP status, the reason goes in {@code ErrorInfo})
 * </ul>
 */
public final class ErrorEnvelope {

    static final String ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";
    static final String DOMAIN = "route-gateway";

    private ErrorEnvelope() {}

    public static String of(Protocol protocol, ReasonCode code, String message) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        switch (protocol) {
            case ANTHROPIC_MESSAGES -> {
                root.put("type", "error");
                ObjectNode error = root.putObject("error");
                error.put("type", code.errorType());
                error.put("message", message);
                error.put("code", code.wire());
            }
            case GEMINI -> {
                ObjectNode error = root.putObject("error");
                error.put("code", code.httpStatus());
                error.put("message", message);
                error.put("status", code == ReasonCode.OPERATION_UNSUPPORTED ? "UNIMPLEMENTED" : "UNAVAILABLE");
                error.putArray("details")
                        .addObject()
                        .put("@type", ERROR_INFO_TYPE)
                        .put("reason", code.wire())
                        .put("domain", DOMAIN);
            }
            default -> {
                ObjectNode error = root.putObject("error");
                error.put("message", message);
                error.put("type", code.errorType());
                error.putNull("param");
                error.put("code", code.wire());
            }
        }
        return root.toString();
    }
}
