package io.routegateway.core.telemetry;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model an upstream says it answered with, for the span attribute {@code gen_ai.response.model}:
 * the first {@code "model"} (OpenAI Chat Completions and Responses, Anthropic Messages and its {@code
 * message_start} frame) or {@code "modelVersion"} (Gemini) string of the answer, a buffered body or a
 * stream's kept head. A quoted {@code \"model\"} inside generated text is not a field and is skipped.
 * Only on spans, never a metric label (it is the upstream's own string): at most {@link #MAX_CHARS}
 * printable characters, otherwise none.
 */
public final class ResponseModel {

    public static final int MAX_CHARS = 128;

    /** Bytes of the answer searched: the field sits in the first frame or near the top of a body. */
    static final int SEARCHED_CHARS = 64 * 1024;

    private static final Pattern FIELD =
            Pattern.compile("(?<!\\\\)\"(?:model|modelVersion)\"\\s*:\\s*\"([\\x20-\\x21\\x23-\\x5b\\x5d-\\x7e]{1,"
                    + MAX_CHARS + "})\"");

    private ResponseModel() {}

    /** The answered model, or null when the text names none (or one too long or with unusual characters). */
    public static String of(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        Matcher field = FIELD.matcher(text.length() > SEARCHED_CHARS ? text.substring(0, SEARCHED_CHARS) : text);
        return field.find() ? field.group(1) : null;
    }
}
