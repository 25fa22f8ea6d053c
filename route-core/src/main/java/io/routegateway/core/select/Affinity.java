package io.routegateway.core.select;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.model.Protocol;

/**
 * Derives the soft-affinity key from the AccessKey, the client protocol, and the request's
 * instructions or, when it has none, the prefix of its first user input.
 *
 * <p>The prefix is the first {@value #PREFIX_CHARS} characters of that text: long enough that two
 * different conversations rarely share it, short enough that a conversation keeps its key as it
 * grows (the system prompt and the opening user turn do not change between turns). Text parts are
 * joined with {@code '\n'}. The key never reads {@code previous_response_id}, {@code conversation}
 * or any other upstream resource id.
 *
 * <p>The key is a 128-bit non-cryptographic hash (two independently seeded 64-bit FNV-style lanes
 * with a final avalanche): computing it costs a few hundred nanoseconds and allocates nothing but
 * the result; a collision only makes two prompts prefer the same credential, which affinity
 * tolerates by design.
 */
public final class Affinity {

    public static final int PREFIX_CHARS = 256;

    private Affinity() {}

    /** The key, or null when there is no prefix (no affinity for such a request). */
    public static AffinityKey key(String accessKeyId, Protocol protocol, String promptPrefix) {
        if (accessKeyId == null || protocol == null || promptPrefix == null || promptPrefix.isEmpty()) {
            return null;
        }
        long h1 = 0xcbf29ce484222325L;
        long h2 = 0x9e3779b97f4a7c15L;
        h1 = mix(h1, accessKeyId);
        h2 = mix2(h2, accessKeyId);
        h1 = (h1 ^ 0xffff) * 0x100000001b3L;
        h2 = (h2 ^ 0xffff) * 0xff51afd7ed558ccdL;
        h1 = mix(h1, protocol.wire());
        h2 = mix2(h2, protocol.wire());
        h1 = (h1 ^ 0xfffe) * 0x100000001b3L;
        h2 = (h2 ^ 0xfffe) * 0xff51afd7ed558ccdL;
        int end = Math.min(promptPrefix.length(), PREFIX_CHARS);
        for (int i = 0; i < end; i++) {
            char c = promptPrefix.charAt(i);
            h1 = (h1 ^ c) * 0x100000001b3L;
            h2 = Long.rotateLeft((h2 ^ c) * 0xff51afd7ed558ccdL, 29);
        }
        return new AffinityKey(avalanche(h1 ^ (h2 >>> 17)), avalanche(h2 + h1));
    }

    /** The stable prefix of a request body in the given protocol, or null when it has none. */
    public static String promptPrefix(Protocol protocol, JsonNode body) {
        if (protocol == null || body == null || !body.isObject()) {
            return null;
        }
        switch (protocol) {
            case OPENAI_CHAT:
                return openAiChatPrefix(body);
            case OPENAI_RESPONSES:
                return responsesPrefix(body);
            case ANTHROPIC_MESSAGES:
                return anthropicPrefix(body);
            case GEMINI:
                return geminiPrefix(body);
            default:
                return null;
        }
    }

    /**
     * OpenAI Chat Completions: the first {@code system} / {@code developer} message of {@code
     * messages}, else the first {@code user} message; content as a string or as parts with {@code
     * text}.
     */
    public static String openAiChatPrefix(JsonNode body) {
        return fromMessages(body.path("messages"), true);
    }

    /**
     * OpenAI Responses: {@code instructions}, else {@code input} — a string, or the first
     * system/developer item, else the first user item, of the input list (content as a string or as
     * {@code input_text} parts).
     */
    public static String responsesPrefix(JsonNode body) {
        String instructions = text(body.path("instructions"));
        if (instructions != null) {
            return instructions;
        }
        JsonNode input = body.path("input");
        if (input.isTextual()) {
            return text(input);
        }
        return fromMessages(input, true);
    }

    /** Anthropic Messages: {@code system} (a string or text blocks), else the first user message. */
    public static String anthropicPrefix(JsonNode body) {
        String system = text(body.path("system"));
        if (system != null) {
            return system;
        }
        return fromMessages(body.path("messages"), false);
    }

    /**
     * Gemini: {@code systemInstruction} (or {@code system_instruction}) parts, else the first
     * {@code contents} entry whose role is {@code user} or absent.
     */
    public static String geminiPrefix(JsonNode body) {
        JsonNode instruction =
                body.has("systemInstruction") ? body.get("systemInstruction") : body.path("system_instruction");
        String system = text(instruction);
        if (system != null) {
            return system;
        }
        JsonNode contents = body.path("contents");
        if (!contents.isArray()) {
            return null;
        }
        for (JsonNode content : contents) {
            String role = content.path("role").asText("");
            if (role.isEmpty() || role.equals("user")) {
                return text(content);
            }
        }
        return null;
    }

    private static String fromMessages(JsonNode messages, boolean systemRoles) {
        if (!messages.isArray()) {
            return null;
        }
        if (systemRoles) {
            for (JsonNode message : messages) {
                String role = message.path("role").asText("");
                if (role.equals("system") || role.equals("developer")) {
                    String text = text(message.path("content"));
                    if (text != null) {
                        return text;
                    }
                }
            }
        }
        for (JsonNode message : messages) {
            if (message.path("role").asText("").equals("user")) {
                return text(message.path("content"));
            }
        }
        return null;
    }

    /** Text of a string, a part / content object, or an array of them, cut at {@link #PREFIX_CHARS}. */
    static String text(JsonNode node) {
        StringBuilder out = new StringBuilder();
        append(node, out);
        if (out.length() == 0 || out.toString().isBlank()) {
            return null;
        }
        return out.length() > PREFIX_CHARS ? out.substring(0, PREFIX_CHARS) : out.toString();
    }

    private static void append(JsonNode node, StringBuilder out) {
        if (node == null || out.length() >= PREFIX_CHARS) {
            return;
        }
        if (node.isTextual()) {
            if (out.length() > 0) {
                out.append('\n');
            }
            String value = node.asText();
            out.append(value, 0, Math.min(value.length(), PREFIX_CHARS - out.length()));
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                append(element, out);
            }
        } else if (node.isObject()) {
            if (node.has("text")) {
                append(node.get("text"), out);
            } else if (node.has("parts")) {
                append(node.get("parts"), out);
            } else if (node.has("content")) {
                append(node.get("content"), out);
            }
        }
    }

    private static long mix(long h, String s) {
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    private static long mix2(long h, String s) {
        for (int i = 0; i < s.length(); i++) {
            h = Long.rotateLeft((h ^ s.charAt(i)) * 0xff51afd7ed558ccdL, 29);
        }
        return h;
    }

    private static long avalanche(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
