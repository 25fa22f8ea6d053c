package io.routegateway.state.identity;

import jakarta.enterprise.context.RequestScoped;

import io.routegateway.core.identity.AdminAccess;
import io.routegateway.core.identity.AdminEndpoint;
import io.routegateway.core.identity.Principal;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;

/**
 * Who is calling the admin API in this request, and what for: set by {@link AdminAuthentication}
 * (the principal, the request id) and {@link EndpointGuard} (the matched endpoint's rule, the path).
 * Outside an admin request (the service's own work) there is no principal: {@link #principal()} is
 * then {@link Principal#SERVICE}.
 */
@RequestScoped
public class CurrentPrincipal {

    private Principal principal;
    private String requestId;
    private AdminEndpoint endpoint;
    private String path;
    private String resourceId;

    void authenticated(Principal principal, String requestId) {
        this.principal = principal;
        this.requestId = requestId;
    }

    void matched(AdminEndpoint endpoint, String path, String resourceId) {
        this.endpoint = endpoint;
        this.path = path;
        this.resourceId = resourceId;
    }

    /** The path's {@code {id}}; null when the path has none. */
    public String resourceId() {
        return resourceId;
    }

    /** The caller; {@link Principal#SERVICE} when no admin caller was authenticated. */
    public Principal principal() {
        return principal == null ? Principal.SERVICE : principal;
    }

    /**
     * The {@code team_id} filter a listing or statistic runs with ({@link AdminAccess#teamFilter}):
     * a team role's own team whatever it sent; naming another team is 403 {@code forbidden}, the
     * same whether that team exists or not.
     */
    public String teamFilter(String requestedTeam) {
        AdminAccess.TeamFilter filter = AdminAccess.teamFilter(principal(), requestedTeam);
        if (!filter.allowed()) {
            throw new AdminException(403, AdminCodes.FORBIDDEN, "a team role sees its own team only (team_id)");
        }
        return filter.teamId();
    }

    /** The caller's team when it has a team role (its reads are cut to it); null for every other role. */
    public String onlyTeam() {
        return AdminAccess.onlyTeam(principal());
    }

    public boolean isAdminRequest() {
        return principal != null;
    }

    /** The request id ({@code X-Request-Id} when well-formed, else generated); null outside a request. */
    public String requestId() {
        return requestId;
    }

    /** The matched endpoint's rule; null before matching or outside an admin request. */
    public AdminEndpoint endpoint() {
        return endpoint;
    }

    /** The request path as matched (decoded). */
    public String path() {
        return path;
    }
}
