package io.routegateway.core.forward;

import java.util.Locale;

import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;

/**
 * A request for an operation the gateway does not serve (Anthropic batches,
 * OpenAI files, Gemini {@code embedContent}, a known path with another method…): it is
 * refused with {@link ReasonCode#OPERATION_UNSUPPORTED} in the envelope of the protocol the path
 * belongs to, naming what the gateway does serve for that protocol.
 */
public final class UnsupportedOperation {

    /** Longest part of the client's path quoted back in the message. */
    static final int MAX_QUOTED_PATH = 200;

    private UnsupportedOperation() {}

    /**
     * The client protocol an unserved path belongs to: Gemini for {@code /v1beta/…} and {@code
     * /v1/models/…:method}, Anthropic for {@code /v1/messages…} or a request carrying Anthropic's
     * {@code anthropic-version} header, OpenAI Chat otherwise.
     */
    public static Protocol protocolOf(String path, boolean anthropicVersionHeader) {
        String lower = path == null ? "" : path.toLowerCase(Locale.ROOT);
        if (lower.startsWith("/v1beta/") || (lower.startsWith("/v1/models/") && lower.contains(":"))) {
            return Protocol.GEMINI;
        }
        if (lower.startsWith("/v1/messages") || anthropicVersionHeader) {
            return Protocol.ANTHROPIC_MESSAGES;
        }
        return Protocol.OPENAI_CHAT;
    }

    /** The refusal's message: the operation asked for (quoted safely) and what is served. */
    public static String message(String method, String path, Protocol protocol) {
        return ReasonCode.OPERATION_UNSUPPORTED.meaning() + ": " + quoted(method, 16) + " "
                + quoted(path, MAX_QUOTED_PATH) + " is not served; " + protocol.wire() + " supports "
                + served(protocol);
    }

    /** The refusal in the protocol's envelope. */
    public static String body(String method, String path, Protocol protocol) {
        return ErrorEnvelope.of(protocol, ReasonCode.OPERATION_UNSUPPORTED, message(method, path, protocol));
    }

    static String served(Protocol protocol) {
        return switch (protocol) {
            case OPENAI_CHAT -> "POST /v1/chat/completions and /v1/embeddings (and GET /v1/models, /v1/models/{id})";
            case OPENAI_RESPONSES -> "POST /v1/responses (and GET /v1/models)";
            case ANTHROPIC_MESSAGES -> "POST /v1/messages and /v1/messages/count_tokens (and GET /v1/models)";
            case GEMINI ->
                "POST /v1beta/models/{model}:generateContent, :streamGenerateContent and :countTokens (and GET"
                        + " /v1beta/models)";
        };
    }

    /** Client text echoed back: control characters replaced, cut to {@code max} characters. */
    static String quoted(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 1);
        for (int i = 0; i < text.length() && out.length() < max; i++) {
            char c = text.charAt(i);
            out.append(Character.isISOControl(c) ? '?' : c);
        }
        if (text.length() > max) {
            out.append('…');
        }
        return out.toString();
    }
}
