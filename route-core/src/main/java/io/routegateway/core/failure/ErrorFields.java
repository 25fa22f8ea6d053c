package io.routegateway.core.failure;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The message, code and type of an error envelope, plus OAuth's {@code error_description}
 * (RFC 6749 token-endpoint errors: {@code {"error":"invalid_grant","error_description":"…"}}). The type is read only from a nested {@code
 * error} object: a top-level {@code type} names the envelope (e.g. Anthropic's {@code
 * "type":"error"}), not the error family. Code and message fall back to the top level when the
 * envelope itself is the error (Responses' {@code {"type":"error","code":...}} event, relay {@code
 * {"message":...}} bodies).
 */
record ErrorFields(String message, String code, String type, String description) {

    static final ErrorFields EMPTY = new ErrorFields(null, null, null, null);

    ErrorFields(String message, String code, String type) {
        this(message, code, type, null);
    }

    static ErrorFields of(JsonNode envelope) {
        if (envelope == null || !envelope.isObject()) {
            return EMPTY;
        }
        JsonNode error = envelope.get("error");
        if (error != null && error.isObject() && !error.isEmpty()) {
            return new ErrorFields(
                    firstText(error.get("message"), error.get("msg"), envelope.get("message"), envelope.get("msg")),
                    codeText(error.get("code")),
                    text(error.get("type")));
        }
        if (error != null && error.isTextual() && !error.asText().isBlank()) {
            return new ErrorFields(
                    error.asText(), codeText(envelope.get("code")), null, text(envelope.get("error_description")));
        }
        return new ErrorFields(
                firstText(envelope.get("message"), envelope.get("msg"), envelope.get("detail")),
                codeText(envelope.get("code")),
                null);
    }

    /** The fields of a body already known to be an error (non-2xx): JSON if it parses, else raw text. */
    static ErrorFields fromErrorBody(String body) {
        if (body == null || body.isBlank()) {
            return EMPTY;
        }
        JsonNode node = SemanticFailureDetector.parseOrNull(body);
        if (node != null && node.isArray() && !node.isEmpty()) {
            node = node.get(0);
        }
        if (node != null && node.isObject()) {
            return of(node);
        }
        return new ErrorFields(body.strip(), null, null);
    }

    /** The upstream's own error fields, the only text that may name a void credential. */
    String[] texts() {
        return new String[] {message, code, type, description};
    }

    private static String firstText(JsonNode... candidates) {
        for (JsonNode candidate : candidates) {
            String value = text(candidate);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    static String text(JsonNode node) {
        if (node == null || !node.isTextual() || node.asText().isBlank()) {
            return null;
        }
        return node.asText();
    }

    static String codeText(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (node.isNumber()) {
            return node.asText();
        }
        return text(node);
    }
}
