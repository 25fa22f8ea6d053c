package io.routegateway.state.identity;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;

import io.routegateway.core.identity.AdminEndpoint;
import io.routegateway.core.identity.AdminEndpoints;

/**
 * The {@code METHOD template} of a JAX-RS resource method, read from its annotations (the class's and
 * the method's {@code @Path}, the method's {@code @GET}/{@code @POST}/…): the key of its rule in
 * {@link AdminEndpoints}. The guard and the test that every resource method has a rule read keys the
 * same way.
 */
public final class EndpointKeys {

    private static final Map<Method, Optional<String>> CACHE = new ConcurrentHashMap<>();

    private EndpointKeys() {}

    /** The key; empty when the method is not a resource method (no HTTP method annotation). */
    public static Optional<String> of(Class<?> resourceClass, Method method) {
        return CACHE.computeIfAbsent(method, m -> compute(resourceClass, m));
    }

    private static Optional<String> compute(Class<?> resourceClass, Method method) {
        String httpMethod = null;
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod marker = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (marker != null) {
                httpMethod = marker.value();
            }
        }
        if (httpMethod == null) {
            return Optional.empty();
        }
        Path classPath = resourceClass.getAnnotation(Path.class);
        Path methodPath = method.getAnnotation(Path.class);
        String template =
                (classPath == null ? "" : classPath.value()) + (methodPath == null ? "" : "/" + methodPath.value());
        return Optional.of(AdminEndpoint.key(httpMethod, AdminEndpoints.normalize(template)));
    }
}
