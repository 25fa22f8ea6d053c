package io.routegateway.state.identity;

import io.smallrye.mutiny.Uni;

/**
 * How the audit trail reads a resource's current view, before and after a write, inside the
 * write's transaction. Each feature with admin writes provides one (a CDI bean), named by the
 * resource type of its rules in {@code AdminEndpoints}.
 */
public interface AuditedResource {

    /** The resource type, as {@code AdminEndpoint.resourceType()} names it. */
    String type();

    /**
     * The resource's current view (what a GET answers; never a secret), or null when it does not
     * exist. {@code id} is null for a singleton (settings).
     */
    Uni<Object> current(String id);
}
