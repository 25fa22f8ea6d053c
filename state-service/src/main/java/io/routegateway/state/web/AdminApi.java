package io.routegateway.state.web;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * The OpenAPI description of the admin API (document at {@code /q/openapi}, Swagger UI at {@code
 * /q/swagger-ui}). An {@link Application} only because that is where the OpenAPI definition is read
 * from; it registers nothing itself, so every resource is served at its own path.
 */
@OpenAPIDefinition(
        info =
                @Info(
                        title = "route gateway admin API",
                        version = "v1",
                        description =
                                "AccessKeys, groups, credentials and their model state, manual recovery actions, route"
                                        + " check, request logs, usage, pool health and runtime settings. Every call needs"
                                        + " Authorization: Bearer <state.admin.token>. Errors: {\"error\":{\"code\":\"...\",\"message\":\"...\"}}."),
        security = @SecurityRequirement(name = AdminApi.SECURITY_SCHEME))
@SecurityScheme(
        securitySchemeName = AdminApi.SECURITY_SCHEME,
        type = SecuritySchemeType.HTTP,
        scheme = "bearer",
        description = "the admin token (state.admin.token)")
public class AdminApi extends Application {

    public static final String BASE = "/admin/v1";
    static final String SECURITY_SCHEME = "admin-token";
}
