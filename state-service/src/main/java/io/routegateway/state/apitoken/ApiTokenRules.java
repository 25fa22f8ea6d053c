package io.routegateway.state.apitoken;

import java.time.Instant;

import io.routegateway.core.identity.Principal;
import io.routegateway.core.identity.Role;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;

/**
 * The checks of an API token's input, without I/O: a token never carries more rights than its
 * creator's ({@link Role#mayGrant}), its role and team never change, an expiry is in the future.
 */
public final class ApiTokenRules {

    private ApiTokenRules() {}

    public record NewToken(String name, Role role, String teamId, Instant expiresAt) {}

    /** {@code expiresAt} is applied only when {@code expirySent}. */
    public record Changes(String name, boolean expirySent, Instant expiresAt) {}

    public static NewToken create(JsonBody<ApiTokenInput> body, Principal creator, Instant now) {
        ApiTokenInput input = body.value();
        String name = Inputs.name(input.name());
        Role role = Role.fromWire(input.role())
                .orElseThrow(() -> AdminException.invalid(
                        AdminCodes.ROLE, "role must be admin, operator, viewer, team_admin or team_member"));
        String teamId = null;
        if (role.teamScoped()) {
            if (input.teamId() == null) {
                throw AdminException.invalid(AdminCodes.ROLE, "a team role needs team_id");
            }
            teamId = Inputs.refId(input.teamId(), AdminCodes.TEAM_ID);
            if (teamId == null) {
                throw AdminException.invalid(AdminCodes.TEAM_ID, "team_id must not be blank");
            }
        } else if (input.teamId() != null) {
            throw AdminException.invalid(AdminCodes.ROLE, "only a team role has a team_id");
        }
        Instant expiresAt = expiry(input.expiresAt(), now);
        if (!creator.role().mayGrant(creator.teamId(), role, teamId)) {
            throw new AdminException(
                    403, AdminCodes.FORBIDDEN, "a token cannot be given more rights than its creator's own");
        }
        return new NewToken(name, role, teamId, expiresAt);
    }

    /** Refuses a role or team change before the body is read (they are not fields of the patch). */
    public static void refuseImmutable(com.fasterxml.jackson.databind.JsonNode body) {
        if (body != null && body.isObject() && (body.has("role") || body.has("team_id"))) {
            throw AdminException.invalid(
                    AdminCodes.IMMUTABLE_FIELD, "a token's role and team never change: revoke it and create another");
        }
    }

    public static Changes update(JsonBody<ApiTokenPatch> body, Instant now) {
        ApiTokenPatch input = body.value();
        String name = body.has("name") ? Inputs.name(input.name()) : null;
        boolean expirySent = body.has("expires_at");
        return new Changes(name, expirySent, expirySent ? expiry(input.expiresAt(), now) : null);
    }

    /** Whether {@code viewer} may see and manage a token of {@code role} / {@code teamId}. */
    public static boolean manages(Principal viewer, Role role, String teamId) {
        return viewer.role().mayGrant(viewer.teamId(), role, teamId);
    }

    private static Instant expiry(Instant expiresAt, Instant now) {
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            throw AdminException.invalid(AdminCodes.EXPIRES_AT, "expires_at must be in the future");
        }
        return expiresAt;
    }
}
