package io.routegateway.gateway.forward;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.forward.ClientMessages;
import io.routegateway.core.json.Json;
import io.vertx.core.buffer.Buffer;

/**
 * The one client error shape: {@code {"error":{"code":"…","message":"…","type":"…"}}}. The message
 * is {@link ClientMessages#bounded bounded}: it may quote client text such as a model name.
 */
public final class ErrorBodies {

    private ErrorBodies() {}

    public static Buffer of(String code, String message, String type) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("code", code);
        error.put("message", ClientMessages.bounded(message));
        error.put("type", type);
        return Buffer.buffer(root.toString());
    }
}
