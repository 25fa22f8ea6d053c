package io.routegateway.core.limits;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.ValidationException;

/**
 * The limits of a team or an AccessKey, one JSON shape everywhere (LiteLLM's field names):
 *
 * <pre>
 * {"rpm_limit": 600, "tpm_limit": 200000, "max_parallel_requests": 20,
 *  "max_budget": 50.0, "budget_duration": "1mo"}
 * </pre>
 *
 * Every field is optional and null means "no limit". A key's limits and its team's both apply:
 * {@link #tighter} is what admission enforces. {@code budget_duration} without {@code max_budget}
 * is refused (a window of nothing); {@code max_budget} without a duration is a lifetime budget.
 *
 * @param rpmLimit requests admitted per sliding 60 seconds, 1..{@value #MAX_RPM}
 * @param tpmLimit input + output tokens per sliding 60 seconds, 1..{@value #MAX_TPM}
 * @param maxParallelRequests requests in flight at once, 1..{@value #MAX_PARALLEL}
 * @param maxBudget USD per budget window, 0..{@link #MAX_BUDGET} (0 = nothing may be spent)
 * @param budgetDuration the budget window; null = the budget never resets
 */
public record Limits(
        Integer rpmLimit,
        Long tpmLimit,
        Integer maxParallelRequests,
        BigDecimal maxBudget,
        BudgetDuration budgetDuration) {

    public static final String CODE = "validation.limits";
    public static final Limits NONE = new Limits(null, null, null, null, null);

    public static final int MAX_RPM = 10_000_000;
    public static final long MAX_TPM = 1_000_000_000_000L;
    public static final int MAX_PARALLEL = 100_000;
    public static final BigDecimal MAX_BUDGET = BigDecimal.valueOf(1_000_000_000L);
    /** Budgets are kept to the micro-USD, the unit costs are counted in. */
    public static final int BUDGET_SCALE = 6;

    static final Set<String> FIELDS =
            Set.of("rpm_limit", "tpm_limit", "max_parallel_requests", "max_budget", "budget_duration");

    public Limits {
        check(rpmLimit == null || (rpmLimit >= 1 && rpmLimit <= MAX_RPM), "rpm_limit must be 1.." + MAX_RPM);
        check(tpmLimit == null || (tpmLimit >= 1 && tpmLimit <= MAX_TPM), "tpm_limit must be 1.." + MAX_TPM);
        check(
                maxParallelRequests == null || (maxParallelRequests >= 1 && maxParallelRequests <= MAX_PARALLEL),
                "max_parallel_requests must be 1.." + MAX_PARALLEL);
        check(
                maxBudget == null || (maxBudget.signum() >= 0 && maxBudget.compareTo(MAX_BUDGET) <= 0),
                "max_budget must be 0.." + MAX_BUDGET + " USD");
        check(
                maxBudget == null || maxBudget.stripTrailingZeros().scale() <= BUDGET_SCALE,
                "max_budget has at most " + BUDGET_SCALE + " decimals");
        check(budgetDuration == null || maxBudget != null, "budget_duration needs max_budget");
    }

    private static void check(boolean holds, String message) {
        if (!holds) {
            throw new ValidationException(CODE, message);
        }
    }

    /** True when no field limits anything. */
    @JsonIgnore
    public boolean isNone() {
        return rpmLimit == null
                && tpmLimit == null
                && maxParallelRequests == null
                && maxBudget == null
                && budgetDuration == null;
    }

    /** The budget in micro-USD, or null when there is none. */
    @JsonIgnore
    public Long maxBudgetMicros() {
        return maxBudget == null ? null : maxBudget.movePointRight(BUDGET_SCALE).longValueExact();
    }

    /**
     * Field by field, the tighter of this and {@code other}. Budgets are not merged: a key's budget
     * and its team's are separate windows of separate spend, so admission checks each on its own;
     * the result keeps this one's budget.
     */
    public Limits tighter(Limits other) {
        if (other == null) {
            return this;
        }
        return new Limits(
                min(rpmLimit, other.rpmLimit),
                min(tpmLimit, other.tpmLimit),
                min(maxParallelRequests, other.maxParallelRequests),
                maxBudget,
                budgetDuration);
    }

    /**
     * A key's limits with the deployment's defaults filling each rate field it does not set ({@code
     * gateway.admission.default-key-limits.*}): a key nobody gave limits still cannot take the whole
     * pool. A field the key sets is its own, looser or tighter; budgets are never defaulted (a
     * budget is a decision about money, not a guard).
     */
    public Limits withDefaults(Limits defaults) {
        if (defaults == null || defaults.isNone()) {
            return this;
        }
        return new Limits(
                rpmLimit != null ? rpmLimit : defaults.rpmLimit,
                tpmLimit != null ? tpmLimit : defaults.tpmLimit,
                maxParallelRequests != null ? maxParallelRequests : defaults.maxParallelRequests,
                maxBudget,
                budgetDuration);
    }

    /**
     * The fields of these limits that are looser than {@code ceiling}'s (a team's): a field set here
     * above the ceiling's value for it, or a budget above the ceiling's budget. A field left null
     * here is not beyond: the ceiling applies to it anyway ({@link #tighter}). Empty when these
     * limits are within the ceiling (or there is none).
     */
    public java.util.List<String> beyond(Limits ceiling) {
        java.util.List<String> fields = new java.util.ArrayList<>();
        if (ceiling == null) {
            return fields;
        }
        if (above(rpmLimit, ceiling.rpmLimit)) {
            fields.add("rpm_limit");
        }
        if (above(tpmLimit, ceiling.tpmLimit)) {
            fields.add("tpm_limit");
        }
        if (above(maxParallelRequests, ceiling.maxParallelRequests)) {
            fields.add("max_parallel_requests");
        }
        if (above(maxBudget, ceiling.maxBudget)) {
            fields.add("max_budget");
        }
        return fields;
    }

    private static <T extends Comparable<T>> boolean above(T value, T ceiling) {
        return value != null && ceiling != null && value.compareTo(ceiling) > 0;
    }

    private static <T extends Comparable<T>> T min(T left, T right) {
        if (left == null) {
            return right;
        }
        if (right == null) {
            return left;
        }
        return left.compareTo(right) <= 0 ? left : right;
    }

    /**
     * Strict parse of an admin write: null or absent = {@link #NONE}; an object whose fields are
     * among the five, each null or of its type and bounds; anything else is {@value #CODE}.
     */
    public static Limits parse(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NONE;
        }
        if (!node.isObject()) {
            throw new ValidationException(CODE, "limits must be an object");
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            String name = fields.next().getKey();
            if (!FIELDS.contains(name)) {
                throw new ValidationException(
                        CODE,
                        "limits takes only rpm_limit, tpm_limit, max_parallel_requests, max_budget and budget_duration");
            }
        }
        Long rpm = wholeNumber(node.get("rpm_limit"), "rpm_limit", MAX_RPM);
        Long parallel = wholeNumber(node.get("max_parallel_requests"), "max_parallel_requests", MAX_PARALLEL);
        return new Limits(
                rpm == null ? null : rpm.intValue(),
                wholeNumber(node.get("tpm_limit"), "tpm_limit", MAX_TPM),
                parallel == null ? null : parallel.intValue(),
                budget(node.get("max_budget")),
                duration(node.get("budget_duration")));
    }

    private static Long wholeNumber(JsonNode value, String field, long max) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new ValidationException(CODE, field + " must be a whole number 1.." + max + " or null");
        }
        long number = value.longValue();
        if (number < 1 || number > max) {
            throw new ValidationException(CODE, field + " must be a whole number 1.." + max + " or null");
        }
        return number;
    }

    private static BigDecimal budget(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        // 1e400 parses as an infinite double, which has no decimal value: refused like any non-number.
        if (!value.isNumber() || ((value.isDouble() || value.isFloat()) && !Double.isFinite(value.doubleValue()))) {
            throw new ValidationException(CODE, "max_budget must be a number of USD or null");
        }
        BigDecimal amount = value.decimalValue();
        if (amount.signum() < 0 || amount.compareTo(MAX_BUDGET) > 0) {
            throw new ValidationException(CODE, "max_budget must be 0.." + MAX_BUDGET + " USD");
        }
        return amount.stripTrailingZeros().scale() < 0 ? amount.setScale(0) : amount.stripTrailingZeros();
    }

    private static BudgetDuration duration(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        BudgetDuration duration = value.isTextual() ? BudgetDuration.fromWire(value.textValue()) : null;
        if (duration == null) {
            throw new ValidationException(CODE, "budget_duration must be one of 1h, 1d, 7d, 30d, 1mo or null");
        }
        return duration;
    }

    /** The stored, published and admin API form: every field, nulls included. */
    public ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        if (rpmLimit == null) {
            node.putNull("rpm_limit");
        } else {
            node.put("rpm_limit", rpmLimit);
        }
        if (tpmLimit == null) {
            node.putNull("tpm_limit");
        } else {
            node.put("tpm_limit", tpmLimit);
        }
        if (maxParallelRequests == null) {
            node.putNull("max_parallel_requests");
        } else {
            node.put("max_parallel_requests", maxParallelRequests);
        }
        if (maxBudget == null) {
            node.putNull("max_budget");
        } else {
            node.put("max_budget", maxBudget);
        }
        if (budgetDuration == null) {
            node.putNull("budget_duration");
        } else {
            node.put("budget_duration", budgetDuration.wire());
        }
        return node;
    }
}
