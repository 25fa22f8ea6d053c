package io.routegateway.state.web;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import io.routegateway.core.access.AdminPath;
import io.routegateway.core.access.BearerToken;
import io.routegateway.state.config.StateConfig;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Every path under {@code /admin} needs {@code Authorization: Bearer <state.admin.token>}. It runs
 * before resource matching, so an unauthenticated caller learns nothing about which admin paths
 * exist; every spelling of the prefix counts ({@link AdminPath}). The comparison is constant-time
 * ({@link BearerToken}).
 */
public class AdminTokenFilter {

    private final String expected;

    AdminTokenFilter(StateConfig config) {
        this.expected = config.admin().token();
    }

    @ServerRequestFilter(preMatching = true)
    public Response requireAdminToken(ContainerRequestContext request) {
        // the raw path and the decoded one: no spelling of /admin may reach a resource unchecked
        // (the router drops matrix parameters such as /admin;x or /admin%3B that a plain prefix test misses)
        if (!AdminPath.isAdmin(request.getUriInfo().getRequestUri().getRawPath())
                && !AdminPath.isAdmin(request.getUriInfo().getPath())) {
            return null;
        }
        return switch (BearerToken.check(request.getHeaderString(HttpHeaders.AUTHORIZATION), expected)) {
            case VALID -> null;
            case MISSING -> unauthorized("the admin API needs Authorization: Bearer <admin token>");
            case INVALID -> unauthorized("the admin token is not valid");
        };
    }

    private static Response unauthorized(String message) {
        Response base = ApiError.response(401, AdminCodes.UNAUTHORIZED, message);
        return Response.fromResponse(base)
                .header(HttpHeaders.WWW_AUTHENTICATE, BearerToken.SCHEME)
                .build();
    }
}
