package io.routegateway.core.limits;

/** Whose limit refused a request. */
public enum LimitScope {
    KEY("AccessKey"),
    TEAM("team");

    private final String label;

    LimitScope(String label) {
        this.label = label;
    }

    /** How a refusal's message names it. */
    public String label() {
        return label;
    }
}
