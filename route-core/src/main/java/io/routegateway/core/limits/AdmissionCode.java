package io.routegateway.core.limits;

/**
 * The {@code error.code} of a request refused by admission; all are HTTP {@value #HTTP_STATUS}
 * with {@code Retry-After}, in the client protocol's own envelope.
 */
public enum AdmissionCode {
    /** rpm_limit or tpm_limit reached. */
    RATE_LIMIT_EXCEEDED("rate_limit_exceeded"),
    /** max_parallel_requests reached, or the team is at its fair share of a contended pool. */
    CONCURRENCY_LIMIT_EXCEEDED("concurrency_limit_exceeded"),
    /** The key's or the team's max_budget is spent for the window. */
    BUDGET_EXCEEDED("budget_exceeded");

    public static final int HTTP_STATUS = 429;

    private final String wire;

    AdmissionCode(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
