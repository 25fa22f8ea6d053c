package io.routegateway.core.usage;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.core.text.StorableText;

/**
 * The {@code model_prices} runtime setting: USD per million tokens, per model.
 *
 * <pre>
 * {"gpt-5.1": {"input_per_million": 1.25, "output_per_million": 10}, ...}
 * </pre>
 *
 * <p>{@code cost_micros} is in micro-USD, so one token at a price of P USD per million costs exactly P
 * micro-USD: {@code cost = input_tokens × input_per_million + output_tokens × output_per_million},
 * rounded half-up to a whole micro-USD. A request is priced by its model key (the upstream name it
 * was charged under), else by its requested name; an unpriced model has no cost (null), never 0.
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

    /** Prices of one model, USD per million tokens, each at least 0. */
    public record Price(BigDecimal inputPerMillion, BigDecimal outputPerMillion) {
        public Price {
            if (inputPerMillion == null || outputPerMillion == null) {
                throw new ValidationException(CODE, "a price needs input_per_million and output_per_million");
            }
            if (inputPerMillion.signum() < 0 || outputPerMillion.signum() < 0) {
                throw new ValidationException(CODE, "prices must not be negative");
            }
            if (inputPerMillion.compareTo(MAX_PRICE) > 0 || outputPerMillion.compareTo(MAX_PRICE) > 0) {
                throw new ValidationException(CODE, "prices must be at most " + MAX_PRICE + " USD per million tokens");
            }
        }
    }

    public ModelPrices {
        prices = Collections.unmodifiableMap(new TreeMap<>(prices == null ? Map.of() : prices));
    }

    /**
     * The cost in micro-USD, or null when neither name has a price or no token count is known.
     *
     * @param modelKey the key the request was charged under, may be null
     * @param requestedModel the client's model name, may be null
     */
    public Long costMicros(String modelKey, String requestedModel, Long inputTokens, Long outputTokens) {
        Price price = modelKey == null ? null : prices.get(modelKey);
        if (price == null && requestedModel != null) {
            price = prices.get(requestedModel);
        }
        if (price == null || (inputTokens == null && outputTokens == null)) {
            return null;
        }
        BigDecimal cost = price.inputPerMillion()
                .multiply(BigDecimal.valueOf(inputTokens == null ? 0 : inputTokens))
                .add(price.outputPerMillion().multiply(BigDecimal.valueOf(outputTokens == null ? 0 : outputTokens)));
        try {
            return cost.setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            // token counts reported by an upstream are not ours to trust: an absurd count has no cost
            return null;
        }
    }

    /**
     * Strict parse for a settings write: an object of model name → {@code {input_per_million,
     * output_per_million}} with non-negative numbers; anything else is {@value #CODE}.
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
            prices.put(
                    model,
                    new Price(amount(price, "input_per_million", model), amount(price, "output_per_million", model)));
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
            entry.put("input_per_million", price.inputPerMillion());
            entry.put("output_per_million", price.outputPerMillion());
        });
        return node;
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
