package io.routegateway.core.policy;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.select.AffinityTable;
import io.routegateway.core.text.StorableText;
import io.routegateway.core.usage.ModelPrices;

/**
 * The runtime settings (table {@code runtime_settings}, one text value per key), with their bounds.
 *
 * @param blacklistThreshold consecutive transient failures an account tolerates: one more flips it to error; 0 = off
 *     (the default), at most {@value #MAX_BLACKLIST_THRESHOLD}
 * @param affinityTtlSeconds lifetime of a session-affinity entry, 1..{@value #MAX_AFFINITY_TTL_SECONDS}
 * @param affinityCapacity affinity entries kept per gateway, 1..{@value #MAX_AFFINITY_CAPACITY}
 *     (10,000 by default)
 * @param modelPrices prices for {@code cost_micros}
 */
public record RuntimeSettings(
        int blacklistThreshold, long affinityTtlSeconds, int affinityCapacity, ModelPrices modelPrices) {

    public static final String BLACKLIST_THRESHOLD = "blacklist_threshold";
    public static final String AFFINITY_TTL_SECONDS = "affinity_ttl_seconds";
    public static final String AFFINITY_CAPACITY = "affinity_capacity";
    public static final String MODEL_PRICES = "model_prices";
    public static final Set<String> KEYS =
            Set.of(BLACKLIST_THRESHOLD, AFFINITY_TTL_SECONDS, AFFINITY_CAPACITY, MODEL_PRICES);

    public static final int MAX_BLACKLIST_THRESHOLD = 1000;
    public static final long MAX_AFFINITY_TTL_SECONDS = 7 * 24 * 3600;
    public static final int MAX_AFFINITY_CAPACITY = 1_000_000;

    public static final String BLACKLIST_THRESHOLD_CODE = "validation.blacklist_threshold";
    public static final String AFFINITY_TTL_CODE = "validation.affinity_ttl_seconds";
    public static final String AFFINITY_CAPACITY_CODE = "validation.affinity_capacity";
    /** The admin API's one code for a field it does not know, on every endpoint. */
    public static final String UNKNOWN_SETTING_CODE = "validation.unknown_field";

    public static final RuntimeSettings DEFAULTS = new RuntimeSettings(
            0, AffinityTable.DEFAULT_TTL.toSeconds(), AffinityTable.DEFAULT_CAPACITY, ModelPrices.NONE);

    public RuntimeSettings {
        if (blacklistThreshold < 0 || blacklistThreshold > MAX_BLACKLIST_THRESHOLD) {
            throw new ValidationException(
                    BLACKLIST_THRESHOLD_CODE, BLACKLIST_THRESHOLD + " must be 0 (off) .. " + MAX_BLACKLIST_THRESHOLD);
        }
        if (affinityTtlSeconds < 1 || affinityTtlSeconds > MAX_AFFINITY_TTL_SECONDS) {
            throw new ValidationException(
                    AFFINITY_TTL_CODE, AFFINITY_TTL_SECONDS + " must be 1.." + MAX_AFFINITY_TTL_SECONDS);
        }
        if (affinityCapacity < 1 || affinityCapacity > MAX_AFFINITY_CAPACITY) {
            throw new ValidationException(
                    AFFINITY_CAPACITY_CODE, AFFINITY_CAPACITY + " must be 1.." + MAX_AFFINITY_CAPACITY);
        }
        modelPrices = modelPrices == null ? ModelPrices.NONE : modelPrices;
    }

    public Duration affinityTtl() {
        return Duration.ofSeconds(affinityTtlSeconds);
    }

    /**
     * Forgiving read of the stored rows: a missing, unparsable or out-of-range value keeps its
     * default, so one hand-edited row cannot stop a service.
     */
    public static RuntimeSettings fromStored(Map<String, String> stored) {
        RuntimeSettings settings = DEFAULTS;
        for (Map.Entry<String, String> row : stored.entrySet()) {
            try {
                settings = settings.with(row.getKey(), row.getValue());
            } catch (RuntimeException ignored) {
                // keep the default of a bad row
            }
        }
        return settings;
    }

    /**
     * Strict application of an admin update: every field present is validated and replaced, fields
     * absent are kept; an unknown key is refused ({@value #UNKNOWN_SETTING_CODE}).
     */
    public RuntimeSettings withPatch(JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            throw new ValidationException("validation.malformed_json", "settings must be a JSON object");
        }
        RuntimeSettings next = this;
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case BLACKLIST_THRESHOLD:
                    next = new RuntimeSettings(
                            integer(value, BLACKLIST_THRESHOLD, BLACKLIST_THRESHOLD_CODE),
                            next.affinityTtlSeconds,
                            next.affinityCapacity,
                            next.modelPrices);
                    break;
                case AFFINITY_TTL_SECONDS:
                    next = new RuntimeSettings(
                            next.blacklistThreshold,
                            integer(value, AFFINITY_TTL_SECONDS, AFFINITY_TTL_CODE),
                            next.affinityCapacity,
                            next.modelPrices);
                    break;
                case AFFINITY_CAPACITY:
                    next = new RuntimeSettings(
                            next.blacklistThreshold,
                            next.affinityTtlSeconds,
                            integer(value, AFFINITY_CAPACITY, AFFINITY_CAPACITY_CODE),
                            next.modelPrices);
                    break;
                case MODEL_PRICES:
                    next = new RuntimeSettings(
                            next.blacklistThreshold,
                            next.affinityTtlSeconds,
                            next.affinityCapacity,
                            ModelPrices.parse(value));
                    break;
                default:
                    throw new ValidationException(
                            UNKNOWN_SETTING_CODE,
                            "unknown setting " + StorableText.quote(field.getKey()) + "; known: " + KEYS);
            }
        }
        return next;
    }

    /** The rows to store: key → text value. */
    public Map<String, String> toStored() {
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put(BLACKLIST_THRESHOLD, Integer.toString(blacklistThreshold));
        rows.put(AFFINITY_TTL_SECONDS, Long.toString(affinityTtlSeconds));
        rows.put(AFFINITY_CAPACITY, Integer.toString(affinityCapacity));
        rows.put(MODEL_PRICES, modelPrices.toJson().toString());
        return rows;
    }

    private RuntimeSettings with(String key, String text) {
        switch (key) {
            case BLACKLIST_THRESHOLD:
                return new RuntimeSettings(
                        Integer.parseInt(text.strip()), affinityTtlSeconds, affinityCapacity, modelPrices);
            case AFFINITY_TTL_SECONDS:
                return new RuntimeSettings(
                        blacklistThreshold, Long.parseLong(text.strip()), affinityCapacity, modelPrices);
            case AFFINITY_CAPACITY:
                return new RuntimeSettings(
                        blacklistThreshold, affinityTtlSeconds, Integer.parseInt(text.strip()), modelPrices);
            case MODEL_PRICES:
                return new RuntimeSettings(
                        blacklistThreshold, affinityTtlSeconds, affinityCapacity, ModelPrices.read(text));
            default:
                return this;
        }
    }

    private static int integer(JsonNode value, String name, String code) {
        if (value == null || !value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new ValidationException(code, name + " must be an integer");
        }
        return value.intValue();
    }
}
