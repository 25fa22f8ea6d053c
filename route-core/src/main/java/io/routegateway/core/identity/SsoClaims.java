package io.routegateway.core.identity;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import io.routegateway.core.text.StorableText;

/**
 * How a verified single sign-on token becomes a {@link Principal}: the subject, the values of the
 * configured roles/groups claim and the team claim are mapped to one {@link Role} (and the team of a
 * team role). The signature, issuer, audience and expiry are checked before this (state-service's
 * OIDC verification); this only reads what the identity provider asserted.
 *
 * <ul>
 *   <li>a value equal to a role's wire name ({@code admin}, {@code operator}, {@code viewer}, {@code
 *       team_admin}, {@code team_member}), after the optional role prefix, grants that role; several
 *       roles: the first in {@link Role}'s order wins (admin, operator, viewer, team_admin,
 *       team_member);
 *   <li>a team role's team is the team claim's value, or else the one roles/groups value of the form
 *       {@code <team prefix><team id>} (the group convention, e.g. {@code team:research}); no team, or
 *       two different ones, and the team role is not granted;
 *   <li>no role: {@link Mapping#refusal()} says why (the caller is authenticated but may do nothing: 403).
 * </ul>
 */
public final class SsoClaims {

    /** A team id as the admin API spells it. */
    private static final Pattern TEAM_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    /** The longest subject kept (the audit log's subject column holds it). */
    public static final int MAX_SUBJECT = 200;

    private SsoClaims() {}

    /** A principal, or why there is none. */
    public record Mapping(Principal principal, String refusal) {

        static Mapping refused(String why) {
            return new Mapping(null, why);
        }

        public boolean granted() {
            return principal != null;
        }
    }

    /**
     * @param subject the token's subject as recorded (the configured subject claim, else {@code sub})
     * @param roleValues the values of the roles/groups claim (empty when absent)
     * @param teamValues the values of the team claim (empty when absent)
     * @param rolePrefix prefix a roles value carries before the role's wire name ({@code ""}: none)
     * @param teamPrefix prefix of a roles/groups value naming the team ({@code ""}: the convention is off)
     */
    public static Mapping map(
            String subject, List<String> roleValues, List<String> teamValues, String rolePrefix, String teamPrefix) {
        if (subject == null || subject.isBlank() || !StorableText.isSingleLine(subject, MAX_SUBJECT)) {
            return Mapping.refused("the token has no usable subject");
        }
        List<Role> roles = new ArrayList<>();
        List<String> groupTeams = new ArrayList<>();
        for (String value : roleValues) {
            if (value == null) {
                continue;
            }
            if (!teamPrefix.isEmpty() && value.startsWith(teamPrefix)) {
                groupTeams.add(value.substring(teamPrefix.length()));
                continue;
            }
            if (value.startsWith(rolePrefix)) {
                Role.fromWire(value.substring(rolePrefix.length())).ifPresent(roles::add);
            }
        }
        Optional<String> team = team(teamValues.isEmpty() ? groupTeams : teamValues);
        for (Role role : Role.values()) {
            if (!roles.contains(role)) {
                continue;
            }
            if (!role.teamScoped()) {
                return new Mapping(new Principal(subject.strip(), Principal.Via.SSO, role, null, null), null);
            }
            if (team.isPresent()) {
                return new Mapping(new Principal(subject.strip(), Principal.Via.SSO, role, team.get(), null), null);
            }
            return Mapping.refused("the role " + role.wire() + " needs exactly one well-formed team");
        }
        return Mapping.refused("the token carries no role of the admin API");
    }

    /** The one well-formed team id among {@code values}; empty for none, a malformed one or two different ones. */
    private static Optional<String> team(List<String> values) {
        String found = null;
        for (String value : values) {
            if (value == null || !TEAM_ID.matcher(value).matches()) {
                return Optional.empty();
            }
            if (found != null && !found.equals(value)) {
                return Optional.empty();
            }
            found = value;
        }
        return Optional.ofNullable(found);
    }
}
