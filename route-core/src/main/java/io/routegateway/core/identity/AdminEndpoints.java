package io.routegateway.core.identity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.routegateway.core.identity.AdminEndpoint.TeamScope;

import static io.routegateway.core.identity.Role.ADMIN;
import static io.routegateway.core.identity.Role.OPERATOR;
import static io.routegateway.core.identity.Role.TEAM_ADMIN;
import static io.routegateway.core.identity.Role.VIEWER;

/**
 * The one table of the admin API's rules: every endpoint (method and path template) with the roles
 * that reach it, its team scope, and whether it is a write. A request matched to a resource method
 * the table does not list is refused (403) whoever asks, and state-service's {@code
 * EndpointRulesTests} fails the build when a resource method has no row here (or a row names no
 * resource method): a new endpoint must declare its rule in this table.
 */
public final class AdminEndpoints {

    public static final String BASE = "/admin/v1";

    private static final Set<Role> ALL = EnumSet.allOf(Role.class);
    private static final Set<Role> READERS = EnumSet.of(ADMIN, OPERATOR, VIEWER);
    private static final Set<Role> OPERATORS = EnumSet.of(ADMIN, OPERATOR);
    private static final Set<Role> ADMINS = EnumSet.of(ADMIN);
    private static final Set<Role> KEY_MANAGERS = EnumSet.of(ADMIN, OPERATOR, TEAM_ADMIN);
    private static final Set<Role> TOKEN_MANAGERS = EnumSet.of(ADMIN, OPERATOR, TEAM_ADMIN);

    private static final Map<String, AdminEndpoint> TABLE = build();

    private AdminEndpoints() {}

    private static Map<String, AdminEndpoint> build() {
        List<AdminEndpoint> rows = new ArrayList<>();
        // credentials and their model state, OAuth, manual recovery actions: operators
        String credentials = BASE + "/credentials";
        read(rows, credentials, "credentials", READERS);
        write(rows, "POST", credentials, "credentials", OPERATORS);
        read(rows, credentials + "/{id}", "credentials", READERS);
        write(rows, "PATCH", credentials + "/{id}", "credentials", OPERATORS);
        write(rows, "DELETE", credentials + "/{id}", "credentials", OPERATORS);
        for (String action : List.of("pause", "resume", "restore", "test")) {
            write(rows, "POST", credentials + "/{id}/" + action, "credentials", OPERATORS);
        }
        read(rows, credentials + "/{id}/timeline", "credentials", READERS);
        read(rows, credentials + "/{id}/models", "credentials", READERS);
        write(rows, "POST", credentials + "/{id}/models/clear-all", "credentials", OPERATORS);
        for (String action : List.of("pause", "resume", "clear")) {
            write(rows, "POST", credentials + "/{id}/models/{modelKey}/" + action, "credentials", OPERATORS);
        }
        read(rows, credentials + "/{id}/oauth", "credentials", READERS);
        write(rows, "PUT", credentials + "/{id}/oauth", "credentials", OPERATORS);
        write(rows, "POST", credentials + "/{id}/oauth/authorize", "credentials", OPERATORS);
        write(rows, "POST", credentials + "/{id}/oauth/callback", "credentials", OPERATORS);
        // groups: operators
        crud(rows, BASE + "/groups", "groups", READERS, OPERATORS);
        // AccessKeys: operators, and team admins (members read) within their team
        String keys = BASE + "/access-keys";
        rows.add(new AdminEndpoint("GET", keys, ALL, TeamScope.IN_RESOURCE, false, "access-keys"));
        rows.add(new AdminEndpoint("POST", keys, KEY_MANAGERS, TeamScope.IN_RESOURCE, true, "access-keys"));
        rows.add(new AdminEndpoint("GET", keys + "/{id}", ALL, TeamScope.ACCESS_KEY, false, "access-keys"));
        rows.add(new AdminEndpoint("PATCH", keys + "/{id}", KEY_MANAGERS, TeamScope.ACCESS_KEY, true, "access-keys"));
        rows.add(new AdminEndpoint("DELETE", keys + "/{id}", KEY_MANAGERS, TeamScope.ACCESS_KEY, true, "access-keys"));
        rows.add(new AdminEndpoint("GET", keys + "/{id}/spend", ALL, TeamScope.ACCESS_KEY, false, "access-keys"));
        // teams: admins write; a team role reads its own team
        String teams = BASE + "/teams";
        read(rows, teams, "teams", READERS);
        write(rows, "POST", teams, "teams", ADMINS);
        rows.add(new AdminEndpoint("GET", teams + "/{id}", ALL, TeamScope.TEAM, false, "teams"));
        write(rows, "PATCH", teams + "/{id}", "teams", ADMINS);
        write(rows, "DELETE", teams + "/{id}", "teams", ADMINS);
        rows.add(new AdminEndpoint("GET", teams + "/{id}/spend", ALL, TeamScope.TEAM, false, "teams"));
        // settings and webhooks: admins write
        read(rows, BASE + "/settings", "settings", READERS);
        write(rows, "PATCH", BASE + "/settings", "settings", ADMINS);
        crud(rows, BASE + "/webhooks", "webhooks", READERS, ADMINS);
        read(rows, BASE + "/webhooks/{id}/deliveries", "webhooks", READERS);
        // reads of the pool, usage and requests; a team role's usage, request log (list, export and
        // detail) are cut to its team by the resource (another team's request is a missing one)
        read(rows, BASE + "/health", "health", READERS);
        rows.add(new AdminEndpoint("GET", BASE + "/usage", ALL, TeamScope.IN_RESOURCE, false, "usage"));
        rows.add(new AdminEndpoint("GET", BASE + "/usage/export", ALL, TeamScope.IN_RESOURCE, false, "usage"));
        rows.add(new AdminEndpoint("GET", BASE + "/requests", ALL, TeamScope.IN_RESOURCE, false, "requests"));
        rows.add(new AdminEndpoint(
                "GET", BASE + "/requests/{request_id}", ALL, TeamScope.IN_RESOURCE, false, "requests"));
        read(rows, BASE + "/overview", "usage", READERS);
        read(rows, BASE + "/overview/credentials", "usage", READERS);
        // route check answers without changing anything; a team role checks its own team's keys only
        rows.add(new AdminEndpoint("POST", BASE + "/route-check", ALL, TeamScope.IN_RESOURCE, false, "route-check"));
        // API tokens: a caller manages the tokens within its own rights (the resource confines it)
        String tokens = BASE + "/api-tokens";
        rows.add(new AdminEndpoint("GET", tokens, TOKEN_MANAGERS, TeamScope.IN_RESOURCE, false, "api-tokens"));
        rows.add(new AdminEndpoint("POST", tokens, TOKEN_MANAGERS, TeamScope.IN_RESOURCE, true, "api-tokens"));
        rows.add(new AdminEndpoint(
                "PATCH", tokens + "/{id}", TOKEN_MANAGERS, TeamScope.IN_RESOURCE, true, "api-tokens"));
        rows.add(new AdminEndpoint(
                "DELETE", tokens + "/{id}", TOKEN_MANAGERS, TeamScope.IN_RESOURCE, true, "api-tokens"));
        // who the caller is and what its role reaches: everyone, each about itself (the console's user menu)
        rows.add(new AdminEndpoint("GET", BASE + "/me", ALL, TeamScope.IN_RESOURCE, false, "identity"));
        // the audit log: read-only, for the roles that see the whole pool
        read(rows, BASE + "/audit", "audit", READERS);
        read(rows, BASE + "/audit/export", "audit", READERS);

        Map<String, AdminEndpoint> table = new LinkedHashMap<>();
        for (AdminEndpoint row : rows) {
            if (table.put(row.key(), row) != null) {
                throw new IllegalStateException("two rules for " + row.key());
            }
        }
        return Collections.unmodifiableMap(table);
    }

    private static void read(List<AdminEndpoint> rows, String template, String type, Set<Role> roles) {
        rows.add(new AdminEndpoint("GET", template, roles, TeamScope.NONE, false, type));
    }

    private static void write(List<AdminEndpoint> rows, String method, String template, String type, Set<Role> roles) {
        rows.add(new AdminEndpoint(method, template, roles, TeamScope.NONE, true, type));
    }

    private static void crud(List<AdminEndpoint> rows, String base, String type, Set<Role> readers, Set<Role> writers) {
        read(rows, base, type, readers);
        write(rows, "POST", base, type, writers);
        read(rows, base + "/{id}", type, readers);
        write(rows, "PATCH", base + "/{id}", type, writers);
        write(rows, "DELETE", base + "/{id}", type, writers);
    }

    /** Every rule, in the table's order. */
    public static List<AdminEndpoint> all() {
        return List.copyOf(TABLE.values());
    }

    /** The rule of {@code METHOD template}; null when the table has none. */
    public static AdminEndpoint find(String method, String template) {
        return TABLE.get(AdminEndpoint.key(method, template));
    }

    /** The rule of a {@link AdminEndpoint#key()}; null when the table has none. */
    public static AdminEndpoint byKey(String key) {
        return TABLE.get(key);
    }

    /**
     * A JAX-RS path template as the table writes it: slashes joined once, a parameter's regular
     * expression dropped ({@code {modelKey: .+}} → {@code {modelKey}}), no trailing slash.
     */
    public static String normalize(String template) {
        String joined = template.replaceAll("/+", "/").replaceAll("\\{\\s*([A-Za-z0-9_]+)\\s*:[^}]*}", "{$1}");
        return joined.length() > 1 && joined.endsWith("/") ? joined.substring(0, joined.length() - 1) : joined;
    }
}
