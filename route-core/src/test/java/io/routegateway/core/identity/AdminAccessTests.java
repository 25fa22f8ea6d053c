package io.routegateway.core.identity;

import io.routegateway.core.identity.AdminAccess.Decision;
import io.routegateway.core.identity.Principal.Via;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminAccessTests {

    private static Principal of(Role role, String team) {
        return new Principal("p", Via.API_TOKEN, role, team, "t1");
    }

    private static AdminEndpoint rule(String method, String template) {
        return AdminEndpoints.find(method, template);
    }

    @Test
    void anEndpointWithoutARuleIsRefusedEvenToAnAdmin() {
        assertThat(AdminAccess.decide(Principal.breakGlass(), null, null)).isEqualTo(Decision.FORBIDDEN);
    }

    @Test
    void adminReachesEverything() {
        for (AdminEndpoint endpoint : AdminEndpoints.all()) {
            assertThat(AdminAccess.decide(Principal.breakGlass(), endpoint, null))
                    .as(endpoint.key())
                    .isEqualTo(Decision.ALLOW);
        }
    }

    @Test
    void aViewerNeverWrites() {
        for (AdminEndpoint endpoint : AdminEndpoints.all()) {
            if (endpoint.write()) {
                assertThat(AdminAccess.decide(of(Role.VIEWER, null), endpoint, null))
                        .as(endpoint.key())
                        .isEqualTo(Decision.FORBIDDEN);
            }
        }
    }

    @Test
    void anOperatorChangesNoSettingsTeamsOrWebhooks() {
        Principal operator = of(Role.OPERATOR, null);
        assertThat(AdminAccess.decide(operator, rule("PATCH", "/admin/v1/settings"), null))
                .isEqualTo(Decision.FORBIDDEN);
        assertThat(AdminAccess.decide(operator, rule("POST", "/admin/v1/teams"), null))
                .isEqualTo(Decision.FORBIDDEN);
        assertThat(AdminAccess.decide(operator, rule("DELETE", "/admin/v1/webhooks/{id}"), null))
                .isEqualTo(Decision.FORBIDDEN);
        assertThat(AdminAccess.decide(operator, rule("POST", "/admin/v1/credentials/{id}/pause"), null))
                .isEqualTo(Decision.ALLOW);
    }

    @Test
    void aTeamRoleReachesItsOwnTeamsKeyAndAnotherTeamsKeyIsNotFound() {
        AdminEndpoint get = rule("GET", "/admin/v1/access-keys/{id}");
        Principal member = of(Role.TEAM_MEMBER, "red");
        assertThat(AdminAccess.needsResourceTeam(member, get)).isTrue();
        assertThat(AdminAccess.decide(member, get, "red")).isEqualTo(Decision.ALLOW);
        assertThat(AdminAccess.decide(member, get, "blue")).isEqualTo(Decision.NOT_FOUND);
        assertThat(AdminAccess.decide(member, get, null)).isEqualTo(Decision.NOT_FOUND);
        // a member reads, never writes, even its own team's key
        assertThat(AdminAccess.decide(member, rule("PATCH", "/admin/v1/access-keys/{id}"), "red"))
                .isEqualTo(Decision.FORBIDDEN);
        assertThat(AdminAccess.decide(of(Role.TEAM_ADMIN, "red"), rule("PATCH", "/admin/v1/access-keys/{id}"), "red"))
                .isEqualTo(Decision.ALLOW);
        // an admin's decision never depends on a team
        assertThat(AdminAccess.needsResourceTeam(Principal.breakGlass(), get)).isFalse();
    }

    @Test
    void aTeamRoleSeesNoCredentialsSettingsOverviewOrAudit() {
        for (Role role : new Role[] {Role.TEAM_ADMIN, Role.TEAM_MEMBER}) {
            Principal principal = of(role, "red");
            for (String template : new String[] {
                "/admin/v1/credentials",
                "/admin/v1/settings",
                "/admin/v1/overview",
                "/admin/v1/health",
                "/admin/v1/audit"
            }) {
                assertThat(AdminAccess.decide(principal, rule("GET", template), null))
                        .as(role + " " + template)
                        .isEqualTo(Decision.FORBIDDEN);
            }
        }
    }

    @Test
    void aTokenNeverGrantsMoreThanItsHoldersRights() {
        assertThat(Role.OPERATOR.mayGrant(null, Role.ADMIN, null)).isFalse();
        assertThat(Role.OPERATOR.mayGrant(null, Role.VIEWER, null)).isTrue();
        assertThat(Role.TEAM_ADMIN.mayGrant("red", Role.TEAM_MEMBER, "red")).isTrue();
        assertThat(Role.TEAM_ADMIN.mayGrant("red", Role.TEAM_MEMBER, "blue")).isFalse();
        assertThat(Role.TEAM_ADMIN.mayGrant("red", Role.OPERATOR, null)).isFalse();
        assertThat(Role.VIEWER.mayGrant(null, Role.VIEWER, null)).isFalse();
        assertThat(Role.TEAM_MEMBER.mayGrant("red", Role.TEAM_MEMBER, "red")).isFalse();
    }

    @Test
    void templatesAreNormalized() {
        assertThat(AdminEndpoints.normalize("/admin/v1/credentials/{id}/models//{modelKey: .+}/pause"))
                .isEqualTo("/admin/v1/credentials/{id}/models/{modelKey}/pause");
        assertThat(AdminEndpoints.normalize("/admin/v1/teams/")).isEqualTo("/admin/v1/teams");
    }

    @Test
    void aTeamRoleNeedsATeamAndOnlyATeamRoleHasOne() {
        assertThatThrownBy(() -> of(Role.TEAM_ADMIN, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> of(Role.ADMIN, "red")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void writesAreEveryNonGetButRouteCheck() {
        for (AdminEndpoint endpoint : AdminEndpoints.all()) {
            boolean expected =
                    !endpoint.method().equals("GET") && !endpoint.template().endsWith("/route-check");
            assertThat(endpoint.write()).as(endpoint.key()).isEqualTo(expected);
        }
    }

    @Test
    void aTeamRoleReadsUsageRequestsAndRouteCheckCutToItsTeam() {
        for (Role role : new Role[] {Role.TEAM_ADMIN, Role.TEAM_MEMBER}) {
            Principal principal = of(role, "red");
            for (String key : new String[] {
                "GET /admin/v1/usage",
                "GET /admin/v1/usage/export",
                "GET /admin/v1/requests",
                "GET /admin/v1/requests/{request_id}",
                "POST /admin/v1/route-check"
            }) {
                AdminEndpoint endpoint = AdminEndpoints.byKey(key);
                assertThat(endpoint.scope()).as(key).isEqualTo(AdminEndpoint.TeamScope.IN_RESOURCE);
                assertThat(AdminAccess.decide(principal, endpoint, null))
                        .as(role + " " + key)
                        .isEqualTo(Decision.ALLOW);
            }
        }
    }

    @Test
    void aTeamRolesFilterIsItsOwnTeamAndAnotherTeamIsRefused() {
        Principal member = of(Role.TEAM_MEMBER, "red");
        assertThat(AdminAccess.teamFilter(member, null)).isEqualTo(new AdminAccess.TeamFilter(true, "red"));
        assertThat(AdminAccess.teamFilter(member, "red")).isEqualTo(new AdminAccess.TeamFilter(true, "red"));
        assertThat(AdminAccess.teamFilter(member, "blue").allowed()).isFalse();
        assertThat(AdminAccess.teamFilter(of(Role.VIEWER, null), "blue"))
                .isEqualTo(new AdminAccess.TeamFilter(true, "blue"));
        assertThat(AdminAccess.teamFilter(of(Role.VIEWER, null), null))
                .isEqualTo(new AdminAccess.TeamFilter(true, null));
        assertThat(AdminAccess.sees(member, "red")).isTrue();
        assertThat(AdminAccess.sees(member, "blue")).isFalse();
        assertThat(AdminAccess.sees(member, null)).isFalse();
        assertThat(AdminAccess.sees(Principal.breakGlass(), null)).isTrue();
        assertThat(AdminAccess.onlyTeam(member)).isEqualTo("red");
        assertThat(AdminAccess.onlyTeam(Principal.breakGlass())).isNull();
    }

    @Test
    void aServicePrincipalNamesTheService() {
        Principal recovery = Principal.service("recovery");
        assertThat(recovery.subject()).isEqualTo("service:recovery");
        assertThat(recovery.via()).isEqualTo(Via.SERVICE);
        assertThatThrownBy(() -> Principal.service("Bad Name")).isInstanceOf(IllegalArgumentException.class);
    }
}
