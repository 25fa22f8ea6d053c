package io.routegateway.state.identity;

import java.util.List;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.access.AdminPath;
import io.routegateway.core.identity.AdminAccess;
import io.routegateway.core.identity.AdminEndpoint;
import io.routegateway.core.identity.AdminEndpoints;
import io.routegateway.core.identity.Principal;
import io.routegateway.state.repository.AccessKeyRepository;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.ApiError;
import io.routegateway.state.web.Inputs;
import io.smallrye.mutiny.Uni;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Enforces {@link AdminEndpoints} on every admin request once it matched a resource method: the
 * method's {@code METHOD template} ({@link EndpointKeys}) names its rule, and {@link AdminAccess}
 * decides. A resource method without a rule is refused to everyone (fail closed; a test keeps the
 * table complete). A team role asking for another team's AccessKey or team gets the very 404 a
 * missing id gets. Runs after {@code AdminInputFilter}, so the path ids are well-formed.
 */
public class EndpointGuard {

    private final CurrentPrincipal current;
    private final AccessKeyRepository accessKeys;

    EndpointGuard(CurrentPrincipal current, AccessKeyRepository accessKeys) {
        this.current = current;
        this.accessKeys = accessKeys;
    }

    @ServerRequestFilter(priority = Priorities.USER + 100)
    public Uni<Response> guard(ContainerRequestContext request, ResourceInfo resource) {
        if (!AdminPath.isAdmin(request.getUriInfo().getRequestUri().getRawPath())
                && !AdminPath.isAdmin(request.getUriInfo().getPath())) {
            return Uni.createFrom().nullItem();
        }
        if (!current.isAdminRequest()) {
            // authentication refused or never ran: nothing reaches a resource without a principal
            return Uni.createFrom().item(ApiError.response(401, AdminCodes.UNAUTHORIZED, "not authenticated"));
        }
        Principal principal = current.principal();
        AdminEndpoint endpoint = resource.getResourceMethod() == null
                ? null
                : EndpointKeys.of(resource.getResourceClass(), resource.getResourceMethod())
                        .map(AdminEndpoints::byKey)
                        .orElse(null);
        List<String> ids = request.getUriInfo().getPathParameters().get("id");
        String id = ids == null || ids.isEmpty() ? "" : ids.get(0);
        current.matched(endpoint, request.getUriInfo().getPath(), id.isEmpty() ? null : id);
        if (!AdminAccess.needsResourceTeam(principal, endpoint)) {
            return Uni.createFrom()
                    .item(answer(AdminAccess.decide(principal, endpoint, null), principal, endpoint, ""));
        }
        Uni<String> owner = switch (endpoint.scope()) {
            case TEAM -> Uni.createFrom().item(id);
            case ACCESS_KEY ->
                Panache.withSession(() -> accessKeys.findById(id).map(row -> row == null ? null : row.teamId));
            default -> Uni.createFrom().nullItem();
        };
        return owner.map(team -> answer(AdminAccess.decide(principal, endpoint, team), principal, endpoint, id));
    }

    private static Response answer(
            AdminAccess.Decision decision, Principal principal, AdminEndpoint endpoint, String id) {
        return switch (decision) {
            case ALLOW -> null;
            case FORBIDDEN ->
                ApiError.response(
                        403,
                        AdminCodes.FORBIDDEN,
                        endpoint == null
                                ? "this endpoint has no access rule"
                                : "the role " + principal.role().wire() + " may not call " + endpoint.key());
            case NOT_FOUND -> notFound(endpoint, id);
        };
    }

    /** Exactly what the resource answers for an id that does not exist. */
    private static Response notFound(AdminEndpoint endpoint, String id) {
        AdminException missing = endpoint.scope() == AdminEndpoint.TeamScope.TEAM
                ? new AdminException(
                        404, AdminCodes.NOT_FOUND, Inputs.isId(id) ? "team " + id + " does not exist" : "no such team")
                : AdminException.notFound("access key", id);
        return ApiError.response(missing.status(), missing.code(), missing.getMessage());
    }
}
