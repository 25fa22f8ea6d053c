package io.routegateway.gateway.forward;

import io.routegateway.core.forward.ClientMessages;
import io.routegateway.core.forward.ErrorEnvelope;
import io.routegateway.core.model.Protocol;
import io.vertx.core.buffer.Buffer;

/**
 * The gateway's refusals in the client protocol's error envelope ({@link ErrorEnvelope}): OpenAI's
 * {@code {"error":{"message","type","param","code"}}}, Anthropic's {@code {"type":"error","error":
 * {"type","message","code"}}}, Gemini's {@code {"error":{"code","message","status","details"}}}; the
 * gateway's code is in each. The message is {@link ClientMessages#bounded bounded}: it may quote
 * client text such as a model name.
 */
public final class ErrorBodies {

    private ErrorBodies() {}

    /**
     * @param protocol the client's protocol, null when none is known (the OpenAI shape)
     * @param status the HTTP status the refusal is sent with
     */
    public static Buffer of(Protocol protocol, int status, String code, String message, String type) {
        return Buffer.buffer(ErrorEnvelope.of(protocol, status, code, ClientMessages.bounded(message), type));
    }
}
