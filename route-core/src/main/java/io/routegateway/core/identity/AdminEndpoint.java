package io.routegateway.core.identity;

import java.util.EnumSet;
import java.util.Set;

/**
 * One admin API endpoint and its rule: which roles reach it, how a team role is confined to its
 * team, and whether a call is a write the audit log records.
 *
 * @param method the HTTP method
 * @param template the path template, parameters as {@code {name}} (no regular expressions)
 * @param roles the roles allowed
 * @param scope how a team role is confined (ignored for the other roles)
 * @param write whether the call may change state (recorded in the audit log)
 * @param resourceType the audit log's resource type ({@code access-keys}, {@code credentials}, …)
 */
public record AdminEndpoint(
        String method, String template, Set<Role> roles, TeamScope scope, boolean write, String resourceType) {

    /** How a team role's call is confined to its own team. */
    public enum TeamScope {
        /** No team role reaches the endpoint (or the endpoint has nothing team-owned). */
        NONE,
        /** The path's {@code {id}} is an AccessKey: a team role reaches its own team's keys only. */
        ACCESS_KEY,
        /** The path's {@code {id}} is a team: a team role reaches its own team only. */
        TEAM,
        /** A listing or creation the resource itself confines to the caller's team (or rights). */
        IN_RESOURCE
    }

    public AdminEndpoint {
        roles = Set.copyOf(roles.isEmpty() ? EnumSet.noneOf(Role.class) : EnumSet.copyOf(roles));
        if (roles.stream().anyMatch(Role::teamScoped) && scope == TeamScope.NONE) {
            throw new IllegalArgumentException(method + " " + template + ": a team role needs a team scope");
        }
    }

    /** {@code METHOD template}, the table's key. */
    public String key() {
        return key(method, template);
    }

    public static String key(String method, String template) {
        return method + " " + template;
    }
}
