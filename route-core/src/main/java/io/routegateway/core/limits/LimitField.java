package io.routegateway.core.limits;

/** Which limit refused a request, by its field name in {@link Limits}, and the code it refuses with. */
public enum LimitField {
    MAX_BUDGET("max_budget", AdmissionCode.BUDGET_EXCEEDED, "budget"),
    RPM_LIMIT("rpm_limit", AdmissionCode.RATE_LIMIT_EXCEEDED, "requests-per-minute limit"),
    TPM_LIMIT("tpm_limit", AdmissionCode.RATE_LIMIT_EXCEEDED, "tokens-per-minute limit"),
    MAX_PARALLEL_REQUESTS("max_parallel_requests", AdmissionCode.CONCURRENCY_LIMIT_EXCEEDED, "parallel requests limit"),
    /** Not a field of {@link Limits}: the team's weighted share of a contended pool ({@link FairShare}). */
    FAIR_SHARE("fair_share", AdmissionCode.CONCURRENCY_LIMIT_EXCEEDED, "fair share of the contended pool");

    private final String wire;
    private final AdmissionCode code;
    private final String description;

    LimitField(String wire, AdmissionCode code, String description) {
        this.wire = wire;
        this.code = code;
        this.description = description;
    }

    public String wire() {
        return wire;
    }

    public AdmissionCode code() {
        return code;
    }

    public String description() {
        return description;
    }
}
