package io.routegateway.recovery.rest;

import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkus.runtime.StartupEvent;
import io.routegateway.common.auth.InternalToken;
import io.routegateway.core.access.BearerToken;
import io.routegateway.core.admin.ErrorBody;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Every call to recovery-service's API needs {@code Authorization: Bearer <route.internal-token>}, the
 * token state-service sends: without it, or with another, the answer is 401 {@code unauthorized} and
 * nothing runs (no model test, no upstream call, no event). It runs before resource matching, so an
 * unauthenticated caller learns nothing about which paths exist. Health and metrics are on the
 * management interface, not behind this filter. The service does not start without a token.
 */
public class InternalTokenFilter {

    static final String CODE = "unauthorized";

    private final InternalToken token;

    InternalTokenFilter(InternalToken token) {
        this.token = token;
    }

    /** Creates the filter, and so checks the token, when the service starts rather than on the first call. */
    void onStart(@Observes StartupEvent event) {
        // the constructor has run: the token is configured
    }

    @ServerRequestFilter(preMatching = true)
    public Response requireInternalToken(ContainerRequestContext request) {
        return switch (token.check(request.getHeaderString(HttpHeaders.AUTHORIZATION))) {
            case VALID -> null;
            case MISSING -> unauthorized("recovery-service needs Authorization: Bearer <internal token>");
            case INVALID -> unauthorized("the internal token is not valid");
        };
    }

    private static Response unauthorized(String message) {
        return Response.status(Response.Status.UNAUTHORIZED)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .header(HttpHeaders.WWW_AUTHENTICATE, BearerToken.SCHEME)
                .entity(ErrorBody.of(401, CODE, message))
                .build();
    }
}
