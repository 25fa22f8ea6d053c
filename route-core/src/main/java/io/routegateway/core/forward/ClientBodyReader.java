package io.routegateway.core.forward;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import io.routegateway.core.json.Json;

/**
 * Reads a client's request body into a JSON tree within bounds, or says why not. A JSON tree costs
 * far more memory than its text ({@code [{},{},…]} about 25 bytes of heap per byte of body), so the
 * shape is bounded as well as the size: nesting depth, the number of tokens (every brace, bracket,
 * name and value counts one) and the length of a number, each refused with {@code
 * json_limits_exceeded} before the tree grows past it. Strings may be as long as the body (a large
 * inline attachment is legitimate).
 *
 * <p>The text must be what RFC 8259 requires on the wire: UTF-8 (a UTF-16 or UTF-32 body, an
 * overlong or otherwise malformed sequence, an encoded surrogate) and no lone surrogate in a {@code
 * \\u} escape, refused with {@code invalid_json}: such text cannot be passed on as it was sent, and a
 * converted one would reach the upstream changed ({@code ?} for a lone surrogate). Numbers keep
 * their exact text ({@code 1e999999} is not turned into {@code Infinity}, {@code 0.10} stays {@code
 * 0.10}). Pure and thread-safe.
 */
public final class ClientBodyReader {

    public static final String JSON_LIMITS_EXCEEDED = "json_limits_exceeded";

    /**
     * @param maxBodyBytes the body limit; also the longest string
     * @param maxDepth deepest nesting of objects and arrays
     * @param maxTokens most JSON tokens in one body
     * @param maxNumberLength longest number, in characters
     */
    public record Bounds(long maxBodyBytes, int maxDepth, long maxTokens, int maxNumberLength) {
        public Bounds {
            if (maxBodyBytes < 1 || maxDepth < 1 || maxTokens < 1 || maxNumberLength < 1) {
                throw new IllegalArgumentException("JSON bounds must be positive");
            }
        }
    }

    /** The tree, or the refusal that answers the request. */
    public sealed interface Result {
        record Parsed(JsonNode body) implements Result {}

        record Refused(Refusal refusal) implements Result {}
    }

    private final ObjectReader reader;
    private final Bounds bounds;

    public ClientBodyReader(Bounds bounds) {
        this.bounds = bounds;
        JsonFactory factory = Json.MAPPER.getFactory().copy();
        factory.setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength((int) Math.min(Integer.MAX_VALUE, bounds.maxBodyBytes()))
                .maxDocumentLength(bounds.maxBodyBytes())
                .maxNestingDepth(bounds.maxDepth())
                .maxTokenCount(bounds.maxTokens())
                .maxNumberLength(bounds.maxNumberLength())
                .build());
        ObjectMapper mapper = Json.MAPPER.copyWith(factory);
        mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        mapper.configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);
        this.reader = mapper.reader();
    }

    public Bounds bounds() {
        return bounds;
    }

    /** {@code null} or empty bytes read as no body (the request refuses it as not a JSON object). */
    public Result read(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return new Result.Parsed(null);
        }
        String encoding = TextCheck.problem(bytes);
        if (encoding != null) {
            return new Result.Refused(Refusal.badRequest(ClientRequest.INVALID_JSON, encoding));
        }
        try {
            return new Result.Parsed(reader.readTree(bytes));
        } catch (StreamConstraintsException e) {
            return new Result.Refused(Refusal.badRequest(JSON_LIMITS_EXCEEDED, limitMessage(e)));
        } catch (IOException e) {
            return new Result.Parsed(null);
        }
    }

    /** Which bound, with its value, never the body's text. */
    private String limitMessage(StreamConstraintsException e) {
        String text = String.valueOf(e.getMessage());
        if (text.contains("nesting depth")) {
            return "the request body nests deeper than " + bounds.maxDepth() + " levels";
        }
        if (text.contains("Token count")) {
            return "the request body has more than " + bounds.maxTokens() + " JSON tokens";
        }
        if (text.contains("Number value length")) {
            return "a number in the request body is longer than " + bounds.maxNumberLength() + " characters";
        }
        return "the request body exceeds the gateway's JSON limits";
    }

    /** The UTF-8 and escape checks of a body, in one pass over its bytes. */
    static final class TextCheck {

        private TextCheck() {}

        /** Why the text is not acceptable JSON text, or null. */
        static String problem(byte[] b) {
            if (b.length >= 2 && (b[0] == 0 || b[1] == 0 || isUtf16Bom(b))) {
                return "the request body must be UTF-8 (it looks like UTF-16 or UTF-32)";
            }
            int i = 0;
            int n = b.length;
            while (i < n) {
                int c = b[i] & 0xFF;
                if (c < 0x80) {
                    if (c == '\\' && i + 1 < n) {
                        int next = b[i + 1] & 0xFF;
                        if (next == 'u') {
                            int unit = hex4(b, i + 2);
                            if (unit >= 0xD800 && unit <= 0xDBFF) {
                                int low = i + 7 < n && b[i + 6] == '\\' && b[i + 7] == 'u' ? hex4(b, i + 8) : -1;
                                if (low < 0xDC00 || low > 0xDFFF) {
                                    return "the request body has a lone surrogate escape (\\u" + hexOf(unit) + ")";
                                }
                                i += 12;
                                continue;
                            }
                            if (unit >= 0xDC00 && unit <= 0xDFFF) {
                                return "the request body has a lone surrogate escape (\\u" + hexOf(unit) + ")";
                            }
                            i += 2; // the hex digits are plain ASCII, checked as they come
                            continue;
                        }
                        i += 2; // an escaped character, a backslash included
                        continue;
                    }
                    i++;
                    continue;
                }
                int length;
                int min;
                int code;
                if (c >= 0xC2 && c <= 0xDF) {
                    length = 2;
                    min = 0x80;
                    code = c & 0x1F;
                } else if (c >= 0xE0 && c <= 0xEF) {
                    length = 3;
                    min = 0x800;
                    code = c & 0x0F;
                } else if (c >= 0xF0 && c <= 0xF4) {
                    length = 4;
                    min = 0x10000;
                    code = c & 0x07;
                } else {
                    return "the request body is not valid UTF-8";
                }
                if (i + length > n) {
                    return "the request body is not valid UTF-8";
                }
                for (int k = 1; k < length; k++) {
                    int cont = b[i + k] & 0xFF;
                    if ((cont & 0xC0) != 0x80) {
                        return "the request body is not valid UTF-8";
                    }
                    code = (code << 6) | (cont & 0x3F);
                }
                if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
                    return "the request body is not valid UTF-8 (an overlong or surrogate sequence)";
                }
                i += length;
            }
            return null;
        }

        private static boolean isUtf16Bom(byte[] b) {
            return ((b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF) || ((b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE);
        }

        /** The four hex digits at {@code at} as a number, -1 when they are not four hex digits. */
        private static int hex4(byte[] b, int at) {
            if (at + 4 > b.length) {
                return -1;
            }
            int value = 0;
            for (int k = 0; k < 4; k++) {
                int digit = Character.digit(b[at + k], 16);
                if (digit < 0) {
                    return -1;
                }
                value = (value << 4) | digit;
            }
            return value;
        }

        private static String hexOf(int unit) {
            return String.format("%04x", unit);
        }
    }
}
