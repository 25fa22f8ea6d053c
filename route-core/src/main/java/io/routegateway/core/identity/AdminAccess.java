package io.routegateway.core.identity;

import io.routegateway.core.identity.AdminEndpoint.TeamScope;

/**
 * The admin API's access decision: a principal, the endpoint its request matched (null: no rule),
 * and, for an endpoint scoped to a team resource, the team that owns the resource.
 */
public final class AdminAccess {

    /** What the request gets. */
    public enum Decision {
        ALLOW,
        /** 403: the role does not reach the endpoint (or the endpoint has no rule). */
        FORBIDDEN,
        /**
         * 404: a team role asked for a resource outside its team, answered exactly as a resource that
         * does not exist, so nothing (not even whether the id exists) leaks.
         */
        NOT_FOUND
    }

    private AdminAccess() {}

    /** Whether the decision needs the owning team of the path's resource (a lookup) first. */
    public static boolean needsResourceTeam(Principal principal, AdminEndpoint endpoint) {
        return endpoint != null
                && principal.role().teamScoped()
                && endpoint.roles().contains(principal.role())
                && (endpoint.scope() == TeamScope.ACCESS_KEY || endpoint.scope() == TeamScope.TEAM);
    }

    /**
     * @param endpoint the matched endpoint's rule; null when the table has none (refused: fail closed)
     * @param resourceTeam the team owning the path's resource (null: none, or no such resource); read
     *     only when {@link #needsResourceTeam} says so
     */
    public static Decision decide(Principal principal, AdminEndpoint endpoint, String resourceTeam) {
        if (endpoint == null || !endpoint.roles().contains(principal.role())) {
            return Decision.FORBIDDEN;
        }
        if (needsResourceTeam(principal, endpoint)) {
            return principal.teamId().equals(resourceTeam) ? Decision.ALLOW : Decision.NOT_FOUND;
        }
        return Decision.ALLOW;
    }

    /**
     * The team filter a listing or statistic runs with ({@code /requests}, {@code /usage}, {@code
     * /usage/export}): a team role is always confined to its own team (no {@code team_id} sent means
     * its own); naming another team is refused (403, whether that team exists or not, so nothing
     * leaks). Any other role keeps the filter it sent.
     */
    public static TeamFilter teamFilter(Principal principal, String requestedTeam) {
        if (!principal.role().teamScoped()) {
            return new TeamFilter(true, requestedTeam);
        }
        if (requestedTeam == null || principal.teamId().equals(requestedTeam)) {
            return new TeamFilter(true, principal.teamId());
        }
        return new TeamFilter(false, null);
    }

    /**
     * Whether a resource owned by {@code resourceTeam} (null: no team, or no such resource) is
     * visible to the principal: any non-team role sees everything, a team role its own team's only.
     * What it may not see is answered as a resource that does not exist.
     */
    public static boolean sees(Principal principal, String resourceTeam) {
        return !principal.role().teamScoped() || principal.teamId().equals(resourceTeam);
    }

    /**
     * The team of a principal's reads: its team for a team role, null (no confinement) for the
     * others.
     */
    public static String onlyTeam(Principal principal) {
        return principal.role().teamScoped() ? principal.teamId() : null;
    }

    /**
     * A listing's team filter.
     *
     * @param allowed false: the principal named a team outside its reach (403)
     * @param teamId the team to filter by (null: every team)
     */
    public record TeamFilter(boolean allowed, String teamId) {}
}
