package io.routegateway.core.usage;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.core.text.StorableText;

/**
 * The {@code model_prices} runtime setting: USD per million tokens, per model and token kind.
 *
 * <pre>
 * {"claude-sonnet-4-5": {"input_per_million": 3, "output_per_million": 15,
 *                        "cache_read_per_million": 0.3, "cache_write_5m_per_million": 3.75,
 *                        "cache_write_1h_per_million": 6},
 *  "o4-mini": {"input_per_million": 1.1, "output_per_million": 4.4, "cache_read_per_million": 0.275}}
 * </pre>
 *
 * <p>{@code input_per_million} and {@code output_per_million} are required; the other four are
 * optional and, when absent, price their tokens as the total they belong to (LiteLLM's convention:
 * a model without a cache price pays for its cached tokens as for any prompt token):
 *
 * <ul>
 *   <li>{@code reasoning_per_million} (default: {@code output_per_million});
 *   <li>{@code cache_read_per_million} (default: {@code input_per_million});
 *   <li>{@code cache_write_5m_per_million} and {@code cache_write_1h_per_million} (default: {@code
 *       input_per_million}; Anthropic charges 1.25× and 2× the input price for them, which an
 *       operator sets explicitly).
 * </ul>
 *
 * <p>{@code cost_micros} is in micro-USD, so one token at a price of P USD per million costs exactly P
 * micro-USD:
 *
 * <pre>
 * cost = (input − cache_read − cache_write_5m − cache_write_1h) × input_per_million
 *      + cache_read × cache_read_per_million
 *      + cache_write_5m × cache_write_5m_per_million + cache_write_1h × cache_write_1h_per_million
 *      + (output − reasoning) × output_per_million + reasoning × reasoning_per_million
 * </pre>
 *
 * rounded half-up to a whole micro-USD. The input and output counts are the totals ({@link
 * TokenUsage}: cached tokens are part of the input, reasoning ones of the output), so a model priced
 * with the two required prices only costs {@code input × input_per_million + output ×
 * output_per_million} as before. Counts an upstream reports inconsistently never make a cost
 * negative: a negative count is 0, and the parts are priced as reported while the uncached input
 * and the non-reasoning output are never below 0. A request is priced by its model key (the upstream
 * name it was charged under), else by its requested name; an unpriced model has no cost (null),
 * never 0.
 */
public record ModelPrices(Map<String, Price> prices) {

    public static final String CODE = "validation.model_prices";
    public static final ModelPrices NONE = new ModelPrices(Map.of());
    /** Priced models at most: the setting is one stored text. */
    public static final int MAX_MODELS = 1000;
    /** Longest priced model name, as long as any admin model name. */
    public static final int MAX_MODEL_CHARS = 256;
    /** Highest price, USD per million tokens: far above any real one, low enough that a cost fits a long. */
    public static final BigDecimal MAX_PRICE = BigDecimal.valueOf(1_000_000);

    static final String INPUT = "input_per_million";
    static final String OUTPUT = "output_per_million";
    static final String REASONING = "reasoning_per_million";
    static final String CACHE_READ = "cache_read_per_million";
    static final String CACHE_WRITE_5M = "cache_write_5m_per_million";
    static final String CACHE_WRITE_1H = "cache_write_1h_per_million";
    /** The fields of one model's price, in their written order. */
    static final List<String> FIELDS = List.of(INPUT, OUTPUT, REASONING, CACHE_READ, CACHE_WRITE_5M, CACHE_WRITE_1H);

    /**
     * Prices of one model, USD per million tokens, each at least 0 and at most {@link #MAX_PRICE}.
     * The four optional ones are null when not set (see the defaults above).
     */
    public record Price(
            BigDecimal inputPerMillion,
            BigDecimal outputPerMillion,
            BigDecimal reasoningPerMillion,
            BigDecimal cacheReadPerMillion,
            BigDecimal cacheWrite5mPerMillion,
            BigDecimal cacheWrite1hPerMillion) {

        public Price {
            if (inputPerMillion == null || outputPerMillion == null) {
                throw new ValidationException(CODE, "a price needs input_per_million and output_per_million");
            }
            for (BigDecimal price : new BigDecimal[] {
                inputPerMillion,
                outputPerMillion,
                reasoningPerMillion,
                cacheReadPerMillion,
                cacheWrite5mPerMillion,
                cacheWrite1hPerMillion
            }) {
                if (price == null) {
                    continue;
                }
                if (price.signum() < 0) {
                    throw new ValidationException(CODE, "prices must not be negative");
                }
                if (price.compareTo(MAX_PRICE) > 0) {
                    throw new ValidationException(
                            CODE, "prices must be at most " + MAX_PRICE + " USD per million tokens");
                }
            }
        }

        /** Input and output prices only: every other kind at its default. */
        public Price(BigDecimal inputPerMillion, BigDecimal outputPerMillion) {
            this(inputPerMillion, outputPerMillion, null, null, null, null);
        }

        /** The reasoning price in effect: the output price when none is set. */
        public BigDecimal reasoning() {
            return reasoningPerMillion != null ? reasoningPerMillion : outputPerMillion;
        }

        /** The cache-read price in effect: the input price when none is set. */
        public BigDecimal cacheRead() {
            return cacheReadPerMillion != null ? cacheReadPerMillion : inputPerMillion;
        }

        /** The 5-minute cache-write price in effect: the input price when none is set. */
        public BigDecimal cacheWrite5m() {
            return cacheWrite5mPerMillion != null ? cacheWrite5mPerMillion : inputPerMillion;
        }

        /** The 1-hour cache-write price in effect: the input price when none is set. */
        public BigDecimal cacheWrite1h() {
            return cacheWrite1hPerMillion != null ? cacheWrite1hPerMillion : inputPerMillion;
        }

        /** The set prices by field name, in {@link #FIELDS} order; unset optional ones left out. */
        Map<String, BigDecimal> set() {
            Map<String, BigDecimal> set = new LinkedHashMap<>();
            set.put(INPUT, inputPerMillion);
            set.put(OUTPUT, outputPerMillion);
            if (reasoningPerMillion != null) {
                set.put(REASONING, reasoningPerMillion);
            }
            if (cacheReadPerMillion != null) {
                set.put(CACHE_READ, cacheReadPerMillion);
            }
            if (cacheWrite5mPerMillion != null) {
                set.put(CACHE_WRITE_5M, cacheWrite5mPerMillion);
            }
            if (cacheWrite1hPerMillion != null) {
                set.put(CACHE_WRITE_1H, cacheWrite1hPerMillion);
            }
            return set;
        }
    }

    public ModelPrices {
        prices = Collections.unmodifiableMap(new TreeMap<>(prices == null ? Map.of() : prices));
    }

    /**
     * The cost in micro-USD of the two totals only (no cached or reasoning part known), or null when
     * neither name has a price or no token count is known.
     *
     * @param modelKey the key the request was charged under, may be null
     * @param requestedModel the client's model name, may be null
     */
    public Long costMicros(String modelKey, String requestedModel, Long inputTokens, Long outputTokens) {
        return costMicros(modelKey, requestedModel, new TokenUsage(inputTokens, outputTokens));
    }

    /**
     * The cost in micro-USD of a usage record's counts ({@code RequestCompleted}'s totals and token
     * details), or null when neither name has a price or no total is known.
     */
    public Long costMicros(
            String modelKey,
            String requestedModel,
            Long inputTokens,
            Long outputTokens,
            Long cacheReadTokens,
            Long cacheWrite5mTokens,
            Long cacheWrite1hTokens,
            Long reasoningTokens) {
        return costMicros(
                modelKey,
                requestedModel,
                TokenUsage.ofDetails(
                        inputTokens,
                        outputTokens,
                        cacheReadTokens,
                        cacheWrite5mTokens,
                        cacheWrite1hTokens,
                        reasoningTokens));
    }

    /**
     * The cost in micro-USD of {@code tokens} priced per kind (the formula above), or null when
     * neither name has a price, no total is known, or the cost does not fit a long.
     *
     * @param modelKey the key the request was charged under, may be null
     * @param requestedModel the client's model name, may be null
     */
    public Long costMicros(String modelKey, String requestedModel, TokenUsage tokens) {
        Price price = modelKey == null ? null : prices.get(modelKey);
        if (price == null && requestedModel != null) {
            price = prices.get(requestedModel);
        }
        if (price == null || tokens == null || (tokens.inputTokens() == null && tokens.outputTokens() == null)) {
            return null;
        }
        return costMicros(price, tokens);
    }

    /** The cost of {@code tokens} at {@code price}, null when it does not fit a long. */
    static Long costMicros(Price price, TokenUsage tokens) {
        long read = nonNegative(tokens.cacheReadTokens());
        long write1h = nonNegative(tokens.cacheWrite1hTokens());
        Long fiveMinutes = tokens.cacheWrite5mTokens();
        long write5m = fiveMinutes == null ? 0 : fiveMinutes;
        long reasoning = nonNegative(tokens.reasoningTokens());
        // in BigDecimal: counts near Long.MAX_VALUE must not wrap
        BigDecimal uncached = BigDecimal.valueOf(nonNegative(tokens.inputTokens()))
                .subtract(BigDecimal.valueOf(read))
                .subtract(BigDecimal.valueOf(write5m))
                .subtract(BigDecimal.valueOf(write1h))
                .max(BigDecimal.ZERO);
        BigDecimal visible = BigDecimal.valueOf(nonNegative(tokens.outputTokens()))
                .subtract(BigDecimal.valueOf(reasoning))
                .max(BigDecimal.ZERO);
        BigDecimal cost = price.inputPerMillion()
                .multiply(uncached)
                .add(price.cacheRead().multiply(BigDecimal.valueOf(read)))
                .add(price.cacheWrite5m().multiply(BigDecimal.valueOf(write5m)))
                .add(price.cacheWrite1h().multiply(BigDecimal.valueOf(write1h)))
                .add(price.outputPerMillion().multiply(visible))
                .add(price.reasoning().multiply(BigDecimal.valueOf(reasoning)));
        try {
            return cost.setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            // token counts reported by an upstream are not ours to trust: an absurd count has no cost
            return null;
        }
    }

    private static long nonNegative(Long value) {
        return value == null ? 0 : Math.max(0, value);
    }

    /**
     * Strict parse for a settings write: an object of model name → {@code {input_per_million,
     * output_per_million}} and any of the four optional prices, each a number from 0 to {@link
     * #MAX_PRICE}; an unknown (or misspelt) price field, or anything else, is {@value #CODE}.
     */
    public static ModelPrices parse(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NONE;
        }
        if (!node.isObject()) {
            throw new ValidationException(CODE, "model_prices must be an object of model name to prices");
        }
        if (node.size() > MAX_MODELS) {
            throw new ValidationException(CODE, "model_prices holds at most " + MAX_MODELS + " models");
        }
        Map<String, Price> prices = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String model = field.getKey().strip();
            if (model.isEmpty()) {
                throw new ValidationException(CODE, "a model name in model_prices is blank");
            }
            if (!StorableText.isSingleLine(model, MAX_MODEL_CHARS)) {
                throw new ValidationException(
                        CODE,
                        "a model name in model_prices must be at most " + MAX_MODEL_CHARS
                                + " characters without control characters, U+0000 or unpaired surrogates");
            }
            JsonNode price = field.getValue();
            if (!price.isObject()) {
                throw new ValidationException(CODE, "the price of " + model + " must be an object");
            }
            Iterator<String> names = price.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                if (!FIELDS.contains(name)) {
                    throw new ValidationException(
                            CODE,
                            "the price of " + model + " has an unknown field (the fields are "
                                    + String.join(", ", FIELDS) + ")");
                }
            }
            prices.put(
                    model,
                    new Price(
                            amount(price, INPUT, model),
                            amount(price, OUTPUT, model),
                            optionalAmount(price, REASONING, model),
                            optionalAmount(price, CACHE_READ, model),
                            optionalAmount(price, CACHE_WRITE_5M, model),
                            optionalAmount(price, CACHE_WRITE_1H, model)));
        }
        return new ModelPrices(prices);
    }

    /** Forgiving read of the stored setting: anything unparsable is {@link #NONE}. */
    public static ModelPrices read(String storedJson) {
        if (storedJson == null || storedJson.isBlank()) {
            return NONE;
        }
        try {
            return parse(Json.MAPPER.readTree(storedJson));
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }

    /** The stored and admin API form. */
    public ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        prices.forEach((model, price) -> {
            ObjectNode entry = node.putObject(model);
            price.set().forEach(entry::put);
        });
        return node;
    }

    /** An optional price: absent is null (its default applies); present, as strict as a required one. */
    private static BigDecimal optionalAmount(JsonNode price, String field, String model) {
        return price.has(field) ? amount(price, field, model) : null;
    }

    private static BigDecimal amount(JsonNode price, String field, String model) {
        JsonNode value = price.get(field);
        if (value == null || !value.isNumber()) {
            throw new ValidationException(CODE, model + "." + field + " must be a number (USD per million tokens)");
        }
        // the text form: a double such as 0.1 would otherwise carry its binary expansion
        try {
            return new BigDecimal(value.asText());
        } catch (NumberFormatException e) {
            // a number too large for a double reads as "Infinity"
            throw new ValidationException(CODE, model + "." + field + " must be a finite number");
        }
    }
}
