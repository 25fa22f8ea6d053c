package io.routegateway.core.forward;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Protocol;

/**
 * Buffered forwarding is the default; streaming passthrough only when all five of the spec's
 * conditions hold:
 *
 * <ol>
 *   <li>no protocol bridge (a bridged stream is not passed through but translated frame by frame,
 *       {@link #mayTranslate});
 *   <li>the client asked for a stream;
 *   <li>the upstream status is 2xx (a non-2xx body decides retry classification first);
 *   <li>no custom tools ({@link #hasCustomTools});
 *   <li>not an official account (official accounts parse the body for subscription/quota
 *       signals).
 * </ol>
 *
 * Conditions 1, 2, 4 and 5 are known before sending ({@link #mayStream}, the gateway's choice of
 * {@code open} over {@code exchange}); condition 3 is checked on the response head ({@link
 * #statusAllows}, by the upstream client).
 */
public final class StreamingPassthrough {

    private StreamingPassthrough() {}

    /** Whether the request qualifies for passthrough before its response is known. */
    public static boolean mayStream(
            boolean bridged, boolean clientAskedForStream, boolean customTools, CredentialKind kind) {
        return !bridged && clientAskedForStream && !customTools && kind != CredentialKind.OFFICIAL;
    }

    /**
     * Whether a bridged stream may be translated frame by frame as it arrives (the upstream stream
     * opened like a passthrough one, the same failover before its first chunk), rather than read
     * whole and translated at its end: the client asked for a stream and the account is not an
     * official one (condition 5, for the same reason). Custom tools never reach a bridge (the
     * conversion refuses them).
     */
    public static boolean mayTranslate(boolean clientAskedForStream, CredentialKind kind) {
        return clientAskedForStream && kind != CredentialKind.OFFICIAL;
    }

    /** Condition 3: only a 2xx response is passed through. */
    public static boolean statusAllows(int status) {
        return status >= 200 && status <= 299;
    }

    /**
     * Whether the client asked for a stream: {@code "stream": true} in the body, or Gemini's
     * {@code :streamGenerateContent} method.
     */
    public static boolean clientAskedForStream(Protocol protocol, JsonNode body, boolean geminiStreamMethod) {
        if (protocol == Protocol.GEMINI) {
            return geminiStreamMethod;
        }
        return body != null && body.path("stream").asBoolean(false);
    }

    /**
     * Custom tools: an entry of {@code tools} whose {@code type} is {@code custom} — OpenAI's
     * free-form custom tools, whose calls come back as frames that tool restoration rewrites. Function
     * tools, Anthropic client tools (no type, or {@code custom} only on the Anthropic protocol, which
     * passes through unchanged) and built-in tools are not custom tools here.
     */
    public static boolean hasCustomTools(Protocol protocol, JsonNode body) {
        if (body == null || (protocol != Protocol.OPENAI_CHAT && protocol != Protocol.OPENAI_RESPONSES)) {
            return false;
        }
        JsonNode tools = body.get("tools");
        if (tools == null || !tools.isArray()) {
            return false;
        }
        for (JsonNode tool : tools) {
            if ("custom".equals(tool.path("type").asText(null))) {
                return true;
            }
        }
        return false;
    }
}
