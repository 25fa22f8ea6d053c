package io.routegateway.core.policy;

/** Every validation code named by the specs, defined once. */
public final class ValidationCodes {

    public static final String FAILURE_POLICY = "validation.route_credential_failure_policy";
    public static final String RECOVERY_TIMES_REQUIRED = "validation.recovery_times_required";
    public static final String RECOVERY_TIMES = "validation.recovery_times";
    public static final String RECOVERY_PROBE_INTERVAL = "validation.recovery_probe_interval";
    public static final String RECOVERY_CONFIG_JSON = "validation.recovery_config_json";
    /** Manual weights are 1..100; the API never accepts 0. */
    public static final String WEIGHT = "validation.weight";

    private ValidationCodes() {}
}
