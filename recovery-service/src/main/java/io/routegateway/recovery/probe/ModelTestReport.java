package io.routegateway.recovery.probe;

/**
 * The answer of one model connectivity test, as the test API returns it.
 *
 * @param status the upstream HTTP status, null when none arrived (connection refused, timeout)
 * @param latencyMs from sending the request to the end of the response
 * @param kind the failure label ({@code model_test_status}, {@code model_test}, ...), null on
 *     success and on a client-side status that is not charged to the credential
 * @param message why the test failed, null on success
 * @param model the requested model name that was tested
 */
public record ModelTestReport(
        boolean success, Integer status, long latencyMs, String kind, String message, String model) {}
