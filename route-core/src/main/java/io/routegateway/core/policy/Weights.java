package io.routegateway.core.policy;

import io.routegateway.core.model.WeightMode;

/**
 * The weight rule of the admin surface: a manual weight is 1..100, and the management API never
 * accepts 0 — stopping traffic is what disabling a group or credential is for (its configuration and
 * statistics stay). A legacy 0 already stored still routes as {@code *_weight_zero}; it just cannot be
 * written again.
 */
public final class Weights {

    public static final int MIN_MANUAL = 1;
    public static final int MAX_MANUAL = 100;

    private Weights() {}

    /** A weight mode with its stored weight. */
    public record Setting(WeightMode mode, int weight) {}

    /**
     * The mode and weight after an update that sends either, both or neither, checked: a weight
     * sent must be writable, and switching to manual without sending one must not revive a stored
     * legacy 0.
     *
     * @param sentMode null when the update leaves the mode unchanged
     * @param sentWeight null when the update leaves the weight unchanged
     * @throws ValidationException {@link ValidationCodes#WEIGHT}
     */
    public static Setting afterUpdate(
            WeightMode currentMode, int currentWeight, WeightMode sentMode, Integer sentWeight) {
        WeightMode mode = sentMode == null ? currentMode : sentMode;
        if (sentWeight != null) {
            requireWritable(mode, sentWeight);
            return new Setting(mode, sentWeight);
        }
        if (mode == WeightMode.MANUAL && currentMode != WeightMode.MANUAL) {
            requireWritable(mode, currentWeight);
        }
        return new Setting(mode, currentWeight);
    }

    /**
     * Checks a weight about to be written. Automatic mode ignores the stored weight, but a value sent
     * with it must still be a valid manual weight, so switching to manual later never revives a 0.
     *
     * @param weight the weight sent, or null when the write leaves it unchanged
     * @throws ValidationException {@link ValidationCodes#WEIGHT}
     */
    public static void requireWritable(WeightMode mode, Integer weight) {
        if (weight == null) {
            return;
        }
        if (weight < MIN_MANUAL || weight > MAX_MANUAL) {
            String hint = weight == 0 ? "; to stop traffic, disable it instead" : "";
            throw new ValidationException(
                    ValidationCodes.WEIGHT,
                    "weight must be " + MIN_MANUAL + ".." + MAX_MANUAL + " (got " + weight + ")" + hint);
        }
    }
}
