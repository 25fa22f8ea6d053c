package io.routegateway.core.identity;

import java.util.Objects;

/**
 * Who calls the admin API, and how they proved it.
 *
 * @param subject who: the API token's name, {@code break-glass}, the SSO subject, or {@code
 *     service} for the service's own writes
 * @param via how the caller was authenticated
 * @param role what the caller may do
 * @param teamId the team of a team role; null for the other roles
 * @param tokenId the API token's id when {@code via} is {@link Via#API_TOKEN}; null otherwise
 */
public record Principal(String subject, Via via, Role role, String teamId, String tokenId) {

    /** How a principal was authenticated. */
    public enum Via {
        /** The bootstrap admin token ({@code state.admin.token}), when break-glass is on. */
        BREAK_GLASS,
        /** A named API token ({@code /admin/v1/api-tokens}). */
        API_TOKEN,
        /** A single sign-on subject. */
        SSO,
        /** The service itself: recovery, OAuth refresh, outcome application. */
        SERVICE;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The subject of the break-glass principal. */
    public static final String BREAK_GLASS_SUBJECT = "break-glass";

    /** The service's own principal: writes no caller asked for (recovery, OAuth refresh). */
    public static final Principal SERVICE = new Principal("service", Via.SERVICE, Role.ADMIN, null, null);

    public Principal {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(via, "via");
        Objects.requireNonNull(role, "role");
        if (role.teamScoped() != (teamId != null)) {
            throw new IllegalArgumentException("a team role needs a team id, and only a team role has one");
        }
    }

    /**
     * A service's own principal, subject {@code service:<name>} ({@code service:recovery}, {@code
     * service:oauth-refresh}): the writes the service makes by itself are attributed to it in the
     * audit log.
     *
     * @param name lower-case letters, digits and {@code -}
     */
    public static Principal service(String name) {
        if (name == null || !name.matches("[a-z0-9][a-z0-9-]{0,63}")) {
            throw new IllegalArgumentException("a service name is lower-case letters, digits and -");
        }
        return new Principal("service:" + name, Via.SERVICE, Role.ADMIN, null, null);
    }

    /** The bootstrap admin token's principal. */
    public static Principal breakGlass() {
        return new Principal(BREAK_GLASS_SUBJECT, Via.BREAK_GLASS, Role.ADMIN, null, null);
    }
}
