package io.routegateway.core.identity;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SsoClaimsTests {

    private static SsoClaims.Mapping map(List<String> roles, List<String> teams) {
        return SsoClaims.map("ada", roles, teams, "", "team:");
    }

    @Test
    void eachRoleNameGrantsItsRoleViaSso() {
        for (Role role : List.of(Role.ADMIN, Role.OPERATOR, Role.VIEWER)) {
            SsoClaims.Mapping mapping = map(List.of("unrelated", role.wire()), List.of());
            assertThat(mapping.principal()).isEqualTo(new Principal("ada", Principal.Via.SSO, role, null, null));
        }
    }

    @Test
    void theMostPrivilegedRoleWins() {
        assertThat(map(List.of("viewer", "admin", "operator"), List.of())
                        .principal()
                        .role())
                .isEqualTo(Role.ADMIN);
        assertThat(map(List.of("team_member", "viewer"), List.of("t1"))
                        .principal()
                        .role())
                .isEqualTo(Role.VIEWER);
    }

    @Test
    void aTeamRoleTakesTheTeamClaimOrTheGroupConvention() {
        assertThat(map(List.of("team_admin"), List.of("research")).principal())
                .isEqualTo(new Principal("ada", Principal.Via.SSO, Role.TEAM_ADMIN, "research", null));
        assertThat(map(List.of("team_member", "team:ops"), List.of()).principal())
                .isEqualTo(new Principal("ada", Principal.Via.SSO, Role.TEAM_MEMBER, "ops", null));
        // the team claim wins over the group convention
        assertThat(map(List.of("team_member", "team:ops"), List.of("research"))
                        .principal()
                        .teamId())
                .isEqualTo("research");
    }

    @Test
    void aTeamRoleWithoutExactlyOneWellFormedTeamIsRefused() {
        assertThat(map(List.of("team_admin"), List.of()).granted()).isFalse();
        assertThat(map(List.of("team_admin", "team:a", "team:b"), List.of()).granted())
                .isFalse();
        assertThat(map(List.of("team_admin"), List.of("../x")).granted()).isFalse();
        assertThat(map(List.of("team_admin"), List.of("a\u0000")).granted()).isFalse();
        assertThat(map(List.of("team_admin"), List.of("a", "b")).refusal()).contains("team_admin");
    }

    @Test
    void noRoleAndBadSubjectsAreRefused() {
        assertThat(map(List.of(), List.of()).refusal()).isEqualTo("the token carries no role of the admin API");
        assertThat(map(List.of("Admin", "ADMIN", "admin "), List.of()).granted())
                .isFalse();
        assertThat(SsoClaims.map("", List.of("admin"), List.of(), "", "").granted())
                .isFalse();
        assertThat(SsoClaims.map("a\nb", List.of("admin"), List.of(), "", "").granted())
                .isFalse();
        assertThat(SsoClaims.map("x".repeat(201), List.of("admin"), List.of(), "", "")
                        .granted())
                .isFalse();
    }

    @Test
    void aRolePrefixIsRequiredWhenConfigured() {
        assertThat(SsoClaims.map("ada", List.of("admin"), List.of(), "route-", "")
                        .granted())
                .isFalse();
        assertThat(SsoClaims.map("ada", List.of("route-operator"), List.of(), "route-", "")
                        .principal()
                        .role())
                .isEqualTo(Role.OPERATOR);
    }

    @Test
    void theTeamConventionOffLeavesTeamLikeValuesAlone() {
        assertThat(SsoClaims.map("ada", List.of("team_member", "team:ops"), List.of(), "", "")
                        .granted())
                .isFalse();
    }
}
