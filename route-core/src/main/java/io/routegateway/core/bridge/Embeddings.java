package io.routegateway.core.bridge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * OpenAI's {@code POST /v1/embeddings}: what a request may hold, and the bridge to Gemini's {@code
 * :batchEmbedContents} (an OpenAI-compatible upstream gets the request as sent, model mapped).
 *
 * <p>The request's {@code input} is one string, an array of 1 to {@value #MAX_INPUTS} strings, one
 * array of token ids, or an array of such arrays; {@code encoding_format} is {@code float} (the
 * default) or {@code base64} (each vector as the base64 of its little-endian float32 values, what
 * the OpenAI SDKs ask for by default); {@code dimensions} a positive integer; {@code user} a
 * string. Gemini embeds text only, so token-id input cannot be bridged.
 */
public final class Embeddings {

    /** Most inputs in one request (OpenAI's own limit). */
    public static final int MAX_INPUTS = 2048;
    /** Largest {@code dimensions} accepted. */
    public static final int MAX_DIMENSIONS = 65_536;

    private Embeddings() {}

    /** Why {@code body} is not an embeddings request, null when it is one. */
    public static String problem(JsonNode body) {
        JsonNode input = body.get("input");
        if (input == null || input.isNull()) {
            return "input is required: a string, an array of strings or an array of token ids";
        }
        String inputProblem = inputProblem(input);
        if (inputProblem != null) {
            return inputProblem;
        }
        JsonNode format = body.get("encoding_format");
        if (format != null
                && !format.isNull()
                && !(format.isTextual()
                        && (format.asText().equals("float") || format.asText().equals("base64")))) {
            return "encoding_format must be \"float\" or \"base64\"";
        }
        JsonNode dimensions = body.get("dimensions");
        if (dimensions != null
                && !dimensions.isNull()
                && !(dimensions.isIntegralNumber()
                        && dimensions.canConvertToInt()
                        && dimensions.intValue() >= 1
                        && dimensions.intValue() <= MAX_DIMENSIONS)) {
            return "dimensions must be an integer from 1 to " + MAX_DIMENSIONS;
        }
        JsonNode user = body.get("user");
        if (user != null && !user.isNull() && !user.isTextual()) {
            return "user must be a string";
        }
        return null;
    }

    private static String inputProblem(JsonNode input) {
        if (input.isTextual()) {
            return textProblem(input.asText(), "input");
        }
        if (!input.isArray()) {
            return "input must be a string, an array of strings or an array of token ids";
        }
        if (input.isEmpty()) {
            return "input must not be empty";
        }
        if (input.size() > MAX_INPUTS) {
            return "input holds " + input.size() + " items; at most " + MAX_INPUTS + " per request";
        }
        JsonNode first = input.get(0);
        if (first.isTextual()) {
            for (int i = 0; i < input.size(); i++) {
                JsonNode item = input.get(i);
                if (!item.isTextual()) {
                    return "input[" + i + "] must be a string like the others";
                }
                String problem = textProblem(item.asText(), "input[" + i + "]");
                if (problem != null) {
                    return problem;
                }
            }
            return null;
        }
        if (first.isIntegralNumber()) {
            return tokensProblem(input, "input");
        }
        if (first.isArray()) {
            for (int i = 0; i < input.size(); i++) {
                JsonNode item = input.get(i);
                if (!item.isArray()) {
                    return "input[" + i + "] must be an array of token ids like the others";
                }
                if (item.isEmpty()) {
                    return "input[" + i + "] must not be empty";
                }
                String problem = tokensProblem(item, "input[" + i + "]");
                if (problem != null) {
                    return problem;
                }
            }
            return null;
        }
        return "input[0] must be a string, a token id or an array of token ids";
    }

    private static String textProblem(String text, String where) {
        if (text.isEmpty()) {
            return where + " must not be an empty string";
        }
        if (text.indexOf('\u0000') >= 0) {
            return where + " holds U+0000";
        }
        return null;
    }

    private static String tokensProblem(JsonNode tokens, String where) {
        for (int i = 0; i < tokens.size(); i++) {
            JsonNode token = tokens.get(i);
            if (!token.isIntegralNumber() || !token.canConvertToInt() || token.intValue() < 0) {
                return where + "[" + i + "] must be a token id (a non-negative integer)";
            }
        }
        return null;
    }

    /** Whether the input is token ids (call on a body {@link #problem} accepts). */
    public static boolean tokenInput(JsonNode body) {
        JsonNode input = body.get("input");
        return input.isArray() && !input.get(0).isTextual();
    }

    /** The input texts in order (call on a body {@link #problem} accepts without {@link #tokenInput}). */
    public static List<String> texts(JsonNode body) {
        JsonNode input = body.get("input");
        if (input.isTextual()) {
            return List.of(input.asText());
        }
        List<String> texts = new ArrayList<>(input.size());
        for (JsonNode item : input) {
            texts.add(item.asText());
        }
        return texts;
    }

    /** Whether the client asked for base64 vectors. */
    public static boolean base64(JsonNode body) {
        JsonNode format = body.get("encoding_format");
        return format != null && "base64".equals(format.asText());
    }

    /**
     * The Gemini {@code :batchEmbedContents} body for {@code model}: one request per input text,
     * {@code dimensions} as {@code outputDimensionality}.
     *
     * @throws UnsupportedConversionException token-id input (Gemini embeds text only)
     */
    public static ObjectNode geminiRequest(JsonNode body, String model) {
        if (tokenInput(body)) {
            throw new UnsupportedConversionException(TOKEN_INPUT);
        }
        JsonNode dimensions = body.get("dimensions");
        ObjectNode root = Nodes.object();
        ArrayNode requests = root.putArray("requests");
        for (String text : texts(body)) {
            ObjectNode request = requests.addObject();
            request.put("model", "models/" + model);
            request.putObject("content").putArray("parts").addObject().put("text", text);
            if (dimensions != null && dimensions.isIntegralNumber()) {
                request.put("outputDimensionality", dimensions.intValue());
            }
        }
        return root;
    }

    /** Why a token-id request cannot go to Gemini. */
    public static final String TOKEN_INPUT = "gemini: token-id input (Gemini embeds text only)";

    /**
     * Gemini's {@code {"embeddings":[{"values":[…]}]}} as OpenAI's embeddings list.
     *
     * @param inputs how many vectors the request asked for
     * @param model the model the client named
     * @param promptTokens the input tokens to report (Gemini's answer carries none)
     * @throws BridgeException the answer is not one vector of numbers per input ({@code response_transform})
     */
    public static ObjectNode fromGemini(JsonNode gemini, int inputs, String model, boolean base64, long promptTokens) {
        if (gemini == null || !gemini.isObject()) {
            throw new BridgeException("upstream response is not a JSON object");
        }
        JsonNode embeddings = gemini.get("embeddings");
        if (embeddings == null || !embeddings.isArray()) {
            throw new BridgeException("upstream response has no embeddings array");
        }
        if (embeddings.size() != inputs) {
            throw new BridgeException(
                    "upstream answered " + embeddings.size() + " embeddings for " + inputs + " inputs");
        }
        ObjectNode root = Nodes.object();
        root.put("object", "list");
        ArrayNode data = root.putArray("data");
        for (int i = 0; i < embeddings.size(); i++) {
            JsonNode values = embeddings.get(i).get("values");
            if (values == null || !values.isArray()) {
                throw new BridgeException("upstream embedding " + i + " has no values array");
            }
            ObjectNode item = data.addObject();
            item.put("object", "embedding");
            item.put("index", i);
            if (base64) {
                item.put("embedding", base64Of(values, i));
            } else {
                ArrayNode vector = item.putArray("embedding");
                for (JsonNode value : values) {
                    if (!value.isNumber()) {
                        throw new BridgeException("upstream embedding " + i + " holds a value that is not a number");
                    }
                    vector.add(value.floatValue());
                }
            }
        }
        root.put("model", model);
        root.putObject("usage").put("prompt_tokens", promptTokens).put("total_tokens", promptTokens);
        return root;
    }

    /** The vector as OpenAI's base64 form: little-endian float32 values. */
    private static String base64Of(JsonNode values, int index) {
        ByteBuffer bytes = ByteBuffer.allocate(values.size() * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (JsonNode value : values) {
            if (!value.isNumber()) {
                throw new BridgeException("upstream embedding " + index + " holds a value that is not a number");
            }
            bytes.putFloat(value.floatValue());
        }
        return Base64.getEncoder().encodeToString(bytes.array());
    }
}
