package io.routegateway.state.rest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import io.routegateway.state.admin.AdminCodes;
import io.routegateway.state.config.StateConfig;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Every path under {@code /admin} needs {@code Authorization: Bearer <state.admin.token>}. It runs
 * before resource matching, so an unauthenticated caller learns nothing about which admin paths
 * exist. The comparison is constant-time.
 */
public class AdminTokenFilter {

    static final String ADMIN_PREFIX = "/admin";
    private static final String BEARER = "Bearer ";

    private final byte[] expected;

    AdminTokenFilter(StateConfig config) {
        this.expected = config.admin().token().getBytes(StandardCharsets.UTF_8);
    }

    @ServerRequestFilter(preMatching = true)
    public Response requireAdminToken(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!path.equals(ADMIN_PREFIX) && !path.startsWith(ADMIN_PREFIX + "/")) {
            return null;
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return unauthorized("the admin API needs Authorization: Bearer <admin token>");
        }
        byte[] presented = header.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(presented, expected)) {
            return unauthorized("the admin token is not valid");
        }
        return null;
    }

    private static Response unauthorized(String message) {
        Response base = ApiError.response(401, AdminCodes.UNAUTHORIZED, message);
        return Response.fromResponse(base)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .build();
    }
}
