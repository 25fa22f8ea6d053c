package io.routegateway.core.usage;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.bridge.Usage;
import io.routegateway.core.json.Json;

/**
 * Tokens in and out of one response, read from the upstream's own usage fields: a JSON body, or
 * the frames of an SSE stream (the last value seen wins, so cumulative counters such as Anthropic's
 * {@code message_delta} and Gemini's per-chunk {@code usageMetadata} give the final count).
 *
 * <p>Each usage object is read by the bridge's canonical reader ({@link Usage#fromUsageObject},
 * {@link Usage#fromUsageMetadata}), the one that reads it for a bridged client's converted answer:
 * the request log records the tokens the client is told. Input tokens are every prompt token,
 * cached ones included (what OpenAI's {@code prompt_tokens} counts); output tokens include
 * reasoning ones.
 *
 * <ul>
 *   <li>OpenAI Chat Completions: {@code usage.prompt_tokens} / {@code usage.completion_tokens}
 *       (streamed in the last chunk when the client asked for it);
 *   <li>OpenAI Responses: {@code usage.input_tokens} / {@code usage.output_tokens}, streamed inside
 *       {@code response.completed}'s {@code response};
 *   <li>Anthropic Messages: {@code usage.input_tokens} + {@code cache_read_input_tokens} + {@code
 *       cache_creation_input_tokens} / {@code usage.output_tokens}, streamed in {@code
 *       message_start}'s {@code message} and {@code message_delta};
 *   <li>Gemini: {@code usageMetadata.promptTokenCount} (cached content included) / {@code
 *       candidatesTokenCount} + {@code thoughtsTokenCount}.
 * </ul>
 *
 * <p>Beside the two totals, the parts priced apart ({@code ModelPrices}), each null when the
 * upstream did not say:
 *
 * <ul>
 *   <li>cache reads: OpenAI's {@code prompt_tokens_details.cached_tokens} (Responses: {@code
 *       input_tokens_details.cached_tokens}), Anthropic's {@code cache_read_input_tokens}, Gemini's
 *       {@code cachedContentTokenCount};
 *   <li>cache writes: Anthropic's {@code cache_creation_input_tokens}, of which {@code
 *       cache_creation.ephemeral_1h_input_tokens} were written for one hour and the rest for five
 *       minutes ({@code ephemeral_5m_input_tokens}); without a {@code cache_creation} split every
 *       write counts as a 5-minute one (Anthropic's default time to live);
 *   <li>reasoning: OpenAI's {@code completion_tokens_details.reasoning_tokens} (Responses: {@code
 *       output_tokens_details.reasoning_tokens}), Gemini's {@code thoughtsTokenCount}.
 * </ul>
 *
 * <p>In a stream the last value seen wins field by field; the 1-hour part is kept apart from the
 * writes' total, so a later frame that repeats the total without the split keeps the split.
 *
 * @param inputTokens null when the response did not say
 * @param outputTokens null when the response did not say
 * @param cacheReadTokens of the input tokens, those read from the prompt cache
 * @param cacheWriteTokens of the input tokens, those written to the cache (5-minute and 1-hour together)
 * @param cacheWrite1hTokens of the cache writes, those written for one hour; null when the upstream
 *     did not split its writes
 * @param reasoningTokens of the output tokens, the reasoning ones
 */
public record TokenUsage(
        Long inputTokens,
        Long outputTokens,
        Long cacheReadTokens,
        Long cacheWriteTokens,
        Long cacheWrite1hTokens,
        Long reasoningTokens) {

    public static final TokenUsage UNKNOWN = new TokenUsage(null, null);

    /** What any text holding usage contains: the end of a {@code "usage"} key, or Gemini's key. */
    private static final String USAGE_KEY_END = "sage\"";

    private static final String GEMINI_USAGE_KEY = "usageMetadata";

    /** Only the two totals known. */
    public TokenUsage(Long inputTokens, Long outputTokens) {
        this(inputTokens, outputTokens, null, null, null, null);
    }

    /** The record's counts of a usage in the canonical form (no 1-hour split: the canonical form has none). */
    public static TokenUsage of(Usage usage) {
        return new TokenUsage(
                usage.inputTokens(),
                usage.outputTokens(),
                usage.cacheReadTokens(),
                usage.cacheWriteTokens(),
                null,
                usage.reasoningTokens());
    }

    /**
     * The counts a usage record carries ({@code RequestCompleted}'s token details): the writes'
     * total is the 5-minute and 1-hour writes summed.
     */
    public static TokenUsage ofDetails(
            Long inputTokens,
            Long outputTokens,
            Long cacheReadTokens,
            Long cacheWrite5mTokens,
            Long cacheWrite1hTokens,
            Long reasoningTokens) {
        Long writes = cacheWrite5mTokens == null && cacheWrite1hTokens == null
                ? null
                : saturatingSum(nonNegative(cacheWrite5mTokens), nonNegative(cacheWrite1hTokens));
        return new TokenUsage(inputTokens, outputTokens, cacheReadTokens, writes, cacheWrite1hTokens, reasoningTokens);
    }

    /**
     * Of the cache writes, those written for five minutes: the total less the 1-hour part (never
     * below 0); null when no write count is known.
     */
    public Long cacheWrite5mTokens() {
        if (cacheWriteTokens == null) {
            return null;
        }
        return Math.max(0, nonNegative(cacheWriteTokens) - nonNegative(cacheWrite1hTokens));
    }

    /** The two totals only, the parts left unknown: what a client is told, whatever its protocol. */
    public TokenUsage totals() {
        return new TokenUsage(inputTokens, outputTokens);
    }

    /** This usage followed by a later one: what the later one says wins, field by field (as frames in order do). */
    public TokenUsage then(TokenUsage later) {
        return new TokenUsage(
                pick(later.inputTokens, inputTokens),
                pick(later.outputTokens, outputTokens),
                pick(later.cacheReadTokens, cacheReadTokens),
                pick(later.cacheWriteTokens, cacheWriteTokens),
                pick(later.cacheWrite1hTokens, cacheWrite1hTokens),
                pick(later.reasoningTokens, reasoningTokens));
    }

    private static Long pick(Long later, Long earlier) {
        return later != null ? later : earlier;
    }

    private static long nonNegative(Long value) {
        return value == null ? 0 : Math.max(0, value);
    }

    private static long saturatingSum(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /**
     * Anthropic's split of its cache writes ({@code cache_creation: {ephemeral_5m_input_tokens,
     * ephemeral_1h_input_tokens}}) over the canonical reading of the same usage object: the 1-hour
     * part, and the total when {@code cache_creation_input_tokens} is absent.
     */
    private static TokenUsage withWriteSplit(TokenUsage usage, JsonNode fields) {
        JsonNode split = fields.get("cache_creation");
        if (split == null || !split.isObject()) {
            return usage;
        }
        Long fiveMinutes = count(split, "ephemeral_5m_input_tokens");
        Long oneHour = count(split, "ephemeral_1h_input_tokens");
        if (fiveMinutes == null && oneHour == null) {
            return usage;
        }
        Long total = usage.cacheWriteTokens != null
                ? usage.cacheWriteTokens
                : (Long) saturatingSum(nonNegative(fiveMinutes), nonNegative(oneHour));
        return new TokenUsage(
                usage.inputTokens,
                usage.outputTokens,
                usage.cacheReadTokens,
                total,
                oneHour == null ? 0L : oneHour,
                usage.reasoningTokens);
    }

    /** A count as the bridge reads one: a whole number that fits a long; anything else says nothing. */
    private static Long count(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value != null && value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        return null;
    }

    /**
     * The usage at the end of a frame whose beginning was not kept. A long stream's kept tail can
     * start inside its last frame: OpenAI Responses' {@code response.completed} repeats the whole
     * answer before its {@code usage}, so past the tail's size only that frame's end is kept. The
     * last {@code "usage"} key (and Gemini's {@code "usageMetadata"}) whose value is an object that
     * ends inside the fragment is read. Only a key in a key's place counts (an opening brace, a comma
     * or white space before its opening quote): inside a JSON string every quote is escaped, so an
     * answer's text that spells the key is not read however the fragment begins.
     */
    public static TokenUsage fromFrameEnd(String fragment) {
        if (fragment == null || fragment.isEmpty()) {
            return UNKNOWN;
        }
        TokenUsage usage = merge(UNKNOWN, lastObjectOf(fragment, "\"usage\""));
        return withGemini(usage, lastObjectOf(fragment, "\"" + GEMINI_USAGE_KEY + "\""));
    }

    /** The object value of the last occurrence of {@code quotedKey} in a key's place that parses; null when none. */
    private static JsonNode lastObjectOf(String fragment, String quotedKey) {
        for (int at = fragment.lastIndexOf(quotedKey); at > 0; at = fragment.lastIndexOf(quotedKey, at - 1)) {
            char before = fragment.charAt(at - 1);
            if (before != '{' && before != ',' && !Character.isWhitespace(before)) {
                continue;
            }
            int colon = skipWhiteSpace(fragment, at + quotedKey.length());
            if (colon >= fragment.length() || fragment.charAt(colon) != ':') {
                continue;
            }
            int brace = skipWhiteSpace(fragment, colon + 1);
            if (brace >= fragment.length() || fragment.charAt(brace) != '{') {
                continue;
            }
            // one value from the brace on; what follows it (the rest of the frame) is not read
            try (JsonParser parser = Json.MAPPER.createParser(fragment.substring(brace))) {
                if (parser.nextToken() == JsonToken.START_OBJECT) {
                    return parser.readValueAsTree();
                }
            } catch (IOException e) {
                // cut short or malformed: an earlier occurrence may still be whole
            }
        }
        return null;
    }

    private static int skipWhiteSpace(String text, int from) {
        int at = from;
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
        return at;
    }

    /** Reads a JSON document or SSE text; {@link #UNKNOWN} when it carries no usage. */
    public static TokenUsage fromBody(String text) {
        if (text == null || text.isEmpty() || !mentionsUsage(text)) {
            return UNKNOWN;
        }
        String trimmed = text.stripLeading();
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            TokenUsage usage = fromDocument(trimmed);
            if (usage != null) {
                return usage;
            }
        }
        return fromSse(text);
    }

    /**
     * Reads, in order, the {@code data:} payloads of SSE text that mention usage. Only those lines
     * are cut out and parsed: a stream's text is scanned once for the two markers, so a long stream
     * whose usage sits in its last frames costs no copy per frame.
     */
    public static TokenUsage fromSse(String text) {
        TokenUsage usage = UNKNOWN;
        int length = text.length();
        Marker sage = new Marker(text, USAGE_KEY_END);
        Marker metadata = new Marker(text, GEMINI_USAGE_KEY);
        int from = 0;
        while (from < length) {
            int mention = Math.min(sage.next(from), metadata.next(from));
            if (mention == Integer.MAX_VALUE) {
                break;
            }
            int lineStart = text.lastIndexOf('\n', mention) + 1;
            int newline = text.indexOf('\n', mention);
            int end = newline < 0 ? length : newline;
            if (text.startsWith("data:", lineStart)) {
                JsonNode node = parse(text.substring(lineStart + 5, end).trim());
                if (node != null) {
                    usage = fromJson(node, usage);
                }
            }
            from = end + 1;
        }
        return usage;
    }

    /** The next place a marker occurs at or after a position, each occurrence searched for once. */
    private static final class Marker {

        private final String text;
        private final String marker;
        private int found = -1;
        private boolean exhausted;

        Marker(String text, String marker) {
            this.text = text;
            this.marker = marker;
        }

        /** Where the marker next starts at or after {@code from}, {@link Integer#MAX_VALUE} when nowhere. */
        int next(int from) {
            if (exhausted) {
                return Integer.MAX_VALUE;
            }
            if (found < from) {
                found = text.indexOf(marker, from);
                if (found < 0) {
                    exhausted = true;
                    return Integer.MAX_VALUE;
                }
            }
            return found;
        }
    }

    /**
     * Reads a whole JSON document as {@link #fromJson} reads its tree, but streaming: only the
     * values that can hold usage are built as nodes, the rest (the answer's text, choices, tool
     * calls) is skipped token by token. Null when the text is not one well-formed JSON value, as
     * {@code readTree} would refuse it.
     */
    private static TokenUsage fromDocument(String text) {
        try (JsonParser parser = Json.MAPPER.createParser(text)) {
            JsonToken first = parser.nextToken();
            return first == null ? null : fromValue(parser, first, UNKNOWN);
        } catch (IOException e) {
            return null;
        }
    }

    /** The parser is on {@code token}; leaves it on the value's last token. */
    private static TokenUsage fromValue(JsonParser parser, JsonToken token, TokenUsage previous) throws IOException {
        if (token == JsonToken.START_ARRAY) {
            TokenUsage usage = previous;
            for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
                usage = fromValue(parser, element, usage);
            }
            return usage;
        }
        if (token != JsonToken.START_OBJECT) {
            return previous;
        }
        // the last of each key wins and the four are applied in fromJson's order, whatever the document's
        JsonNode usage = null;
        JsonNode messageUsage = null;
        JsonNode responseUsage = null;
        JsonNode gemini = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "usage" -> usage = parser.readValueAsTree();
                case "message" -> messageUsage = usageIn(parser, value);
                case "response" -> responseUsage = usageIn(parser, value);
                case "usageMetadata" -> gemini = parser.readValueAsTree();
                default -> parser.skipChildren();
            }
        }
        TokenUsage result = merge(previous, usage);
        result = merge(result, messageUsage);
        result = merge(result, responseUsage);
        return withGemini(result, gemini);
    }

    /** The {@code usage} member of the object the parser is on (its last one), null when none or no object. */
    private static JsonNode usageIn(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return null;
        }
        JsonNode usage = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            if (name.equals("usage")) {
                usage = parser.readValueAsTree();
            } else {
                parser.skipChildren();
            }
        }
        return usage;
    }

    private static TokenUsage fromJson(JsonNode node, TokenUsage previous) {
        if (node.isArray()) {
            TokenUsage usage = previous;
            for (JsonNode element : node) {
                usage = fromJson(element, usage);
            }
            return usage;
        }
        TokenUsage usage = previous;
        usage = merge(usage, node.get("usage"));
        usage = merge(usage, node.path("message").get("usage"));
        usage = merge(usage, node.path("response").get("usage"));
        return withGemini(usage, node.get("usageMetadata"));
    }

    private static TokenUsage withGemini(TokenUsage usage, JsonNode gemini) {
        if (gemini == null || !gemini.isObject()) {
            return usage;
        }
        return usage.then(of(Usage.fromUsageMetadata(gemini)));
    }

    private static TokenUsage merge(TokenUsage usage, JsonNode fields) {
        if (fields == null || !fields.isObject()) {
            return usage;
        }
        return usage.then(withWriteSplit(of(Usage.fromUsageObject(fields)), fields));
    }

    private static boolean mentionsUsage(String text) {
        return text.contains(USAGE_KEY_END) || text.contains(GEMINI_USAGE_KEY);
    }

    private static JsonNode parse(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }
}
