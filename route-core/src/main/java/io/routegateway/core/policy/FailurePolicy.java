package io.routegateway.core.policy;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An account's {@code config_json.failure_policy}: one record for the account and all of its
 * models.
 *
 * @param retryCount same-credential retries before a failure is recorded (default 2, 0..10)
 * @param retryIntervalMs wait between same-credential retries (default 200, 0..60000)
 * @param semanticErrorThreshold model-level streak length that flips a model to error (default 10,
 *     1..1000)
 * @param cooldownEnabled whether transient failures write cooldown timestamps (off by default)
 * @param cooldownSeconds the fixed cooldown window (default 10, 1..86400)
 * @param errorStatusEnabled master switch: off means streaks count but never flip to error
 */
public record FailurePolicy(
        int retryCount,
        int retryIntervalMs,
        int semanticErrorThreshold,
        boolean cooldownEnabled,
        int cooldownSeconds,
        boolean errorStatusEnabled) {

    public static final int DEFAULT_RETRY_COUNT = 2;
    public static final int MAX_RETRY_COUNT = 10;
    public static final int DEFAULT_RETRY_INTERVAL_MS = 200;
    public static final int MAX_RETRY_INTERVAL_MS = 60_000;
    public static final int DEFAULT_SEMANTIC_ERROR_THRESHOLD = 10;
    public static final int MAX_SEMANTIC_ERROR_THRESHOLD = 1000;
    public static final int DEFAULT_COOLDOWN_SECONDS = 10;
    public static final int MAX_COOLDOWN_SECONDS = 86_400;

    public static final FailurePolicy DEFAULTS = new FailurePolicy(
            DEFAULT_RETRY_COUNT,
            DEFAULT_RETRY_INTERVAL_MS,
            DEFAULT_SEMANTIC_ERROR_THRESHOLD,
            false,
            DEFAULT_COOLDOWN_SECONDS,
            true);

    public FailurePolicy {
        check(retryCount >= 0 && retryCount <= MAX_RETRY_COUNT, "retry_count must be 0.." + MAX_RETRY_COUNT);
        check(
                retryIntervalMs >= 0 && retryIntervalMs <= MAX_RETRY_INTERVAL_MS,
                "retry_interval_ms must be 0.." + MAX_RETRY_INTERVAL_MS);
        check(
                semanticErrorThreshold >= 1 && semanticErrorThreshold <= MAX_SEMANTIC_ERROR_THRESHOLD,
                "semantic_error_threshold must be 1.." + MAX_SEMANTIC_ERROR_THRESHOLD);
        check(
                cooldownSeconds >= 1 && cooldownSeconds <= MAX_COOLDOWN_SECONDS,
                "cooldown_seconds must be 1.." + MAX_COOLDOWN_SECONDS);
    }

    /** The cooldown window to write, or null when cooldown is off. */
    public Integer effectiveCooldownSeconds() {
        return cooldownEnabled ? cooldownSeconds : null;
    }

    /**
     * Strict parse for writes: absent fields keep their defaults, an absent or null policy is all
     * defaults, anything out of range or of the wrong type is {@link ValidationCodes#FAILURE_POLICY},
     * a field a policy does not have is {@code validation.unknown_field}.
     */
    public static FailurePolicy parse(JsonNode node) {
        if (node != null && node.isObject()) {
            java.util.Iterator<String> names = node.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                if (!FIELDS.contains(name)) {
                    // a misspelt field (cooldown_second) would otherwise leave its setting at the
                    // default without a word: the name is echoed only when it is a plain one
                    throw new ValidationException(
                            UNKNOWN_FIELD,
                            (name.matches("[A-Za-z0-9_]{1,64}") ? "unknown field failure_policy." + name + "; " : "")
                                    + "failure_policy takes only " + String.join(", ", FIELDS));
                }
            }
        }
        return read(node);
    }

    /** The fields a policy has: any other in a write is {@code validation.unknown_field}. */
    public static final java.util.List<String> FIELDS = java.util.List.of(
            "retry_count",
            "retry_interval_ms",
            "semantic_error_threshold",
            "cooldown_enabled",
            "cooldown_seconds",
            "error_status_enabled");

    public static final String UNKNOWN_FIELD = "validation.unknown_field";

    private static FailurePolicy read(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return DEFAULTS;
        }
        if (!node.isObject()) {
            throw new ValidationException(ValidationCodes.FAILURE_POLICY, "failure_policy must be a JSON object");
        }
        return new FailurePolicy(
                intField(node, "retry_count", DEFAULT_RETRY_COUNT),
                intField(node, "retry_interval_ms", DEFAULT_RETRY_INTERVAL_MS),
                intField(node, "semantic_error_threshold", DEFAULT_SEMANTIC_ERROR_THRESHOLD),
                boolField(node, "cooldown_enabled", false),
                intField(node, "cooldown_seconds", DEFAULT_COOLDOWN_SECONDS),
                boolField(node, "error_status_enabled", true));
    }

    /**
     * Forgiving read of a stored policy (the spec's {@code from_config_json}): a corrupt or
     * out-of-range stored policy falls back to the defaults instead of breaking the request path.
     */
    public static FailurePolicy fromConfigJson(JsonNode configJson) {
        if (configJson == null || !configJson.isObject()) {
            return DEFAULTS;
        }
        try {
            // a stored policy is read leniently: a field this version does not know is ignored
            return read(configJson.get("failure_policy"));
        } catch (ValidationException e) {
            return DEFAULTS;
        }
    }

    private static int intField(JsonNode node, String name, int fallback) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new ValidationException(ValidationCodes.FAILURE_POLICY, name + " must be an integer");
        }
        return value.intValue();
    }

    private static boolean boolField(JsonNode node, String name, boolean fallback) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isBoolean()) {
            throw new ValidationException(ValidationCodes.FAILURE_POLICY, name + " must be a boolean");
        }
        return value.booleanValue();
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new ValidationException(ValidationCodes.FAILURE_POLICY, message);
        }
    }
}
