package io.routegateway.core.policy;

/** Rejected input, carrying the stable code the admin API returns (e.g. {@code validation.recovery_times}). */
public final class ValidationException extends RuntimeException {

    private final String code;

    public ValidationException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
