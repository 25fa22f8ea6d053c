package io.routegateway.testsupport;

import io.quarkus.test.common.http.TestHTTPResourceManager;

/**
 * URLs on the management interface of the Quarkus application under test ({@code
 * quarkus.management.*}: health and metrics, on a port of their own; tests get a free one).
 */
public final class Management {

    private Management() {}

    /**
     * The URL of {@code path} below the management root {@code /q}, e.g. {@code url("/health/ready")}
     * or {@code url("/metrics")}.
     */
    public static String url(String path) {
        return TestHTTPResourceManager.getManagementUri() + path;
    }
}
