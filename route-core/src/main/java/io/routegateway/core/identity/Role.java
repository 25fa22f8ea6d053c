package io.routegateway.core.identity;

import java.util.Locale;
import java.util.Optional;

/**
 * What a principal of the admin API may do. {@code admin}: everything (settings, teams, webhooks,
 * identity); {@code operator}: credentials, groups, AccessKeys, recovery actions, no settings;
 * {@code viewer}: read-only, never a secret; {@code team_admin} / {@code team_member}: their own
 * team's AccessKeys (the admin manages them, the member reads them), the team and its spend. Which
 * endpoint each role reaches is {@link AdminEndpoints}.
 */
public enum Role {
    ADMIN,
    OPERATOR,
    VIEWER,
    TEAM_ADMIN,
    TEAM_MEMBER;

    /** The wire name: {@code admin}, {@code operator}, {@code viewer}, {@code team_admin}, {@code team_member}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The role of a wire name (exact spelling); empty for anything else. */
    public static Optional<Role> fromWire(String wire) {
        for (Role role : values()) {
            if (role.wire().equals(wire)) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }

    /** Whether the role is bound to one team (its principal carries a team id). */
    public boolean teamScoped() {
        return this == TEAM_ADMIN || this == TEAM_MEMBER;
    }

    /**
     * Whether a principal of this role (of team {@code ownTeam}) may hand out {@code granted} (for
     * team {@code grantedTeam}) to an API token: never more than its own rights. An admin grants
     * anything; an operator grants operator or viewer; a team admin grants the team roles of its own
     * team; a viewer and a team member grant nothing.
     */
    public boolean mayGrant(String ownTeam, Role granted, String grantedTeam) {
        return switch (this) {
            case ADMIN -> true;
            case OPERATOR -> granted == OPERATOR || granted == VIEWER;
            case TEAM_ADMIN -> granted.teamScoped() && ownTeam != null && ownTeam.equals(grantedTeam);
            case VIEWER, TEAM_MEMBER -> false;
        };
    }
}
