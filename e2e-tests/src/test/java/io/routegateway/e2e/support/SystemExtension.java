package io.routegateway.e2e.support;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Closes the shared {@link RouteSystem} once the whole test run is over (a resource of the root
 * context's store), whatever the outcome of the tests; the system's shutdown hook covers a JVM
 * that ends otherwise.
 */
public final class SystemExtension implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).getOrComputeIfAbsent(SystemExtension.class, key ->
                (ExtensionContext.Store.CloseableResource) RouteSystem::closeShared);
    }
}
