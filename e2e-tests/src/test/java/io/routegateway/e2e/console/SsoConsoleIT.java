package io.routegateway.e2e.console;

import java.util.List;
import java.util.Map;

import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.LocalKeycloak;
import io.routegateway.e2e.support.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Single sign-on in a real browser (Debian's headless Chromium) through the real Keycloak
 * (deploy/local/keycloak.sh, the shipped realm and its users): each role signs in on Keycloak's own
 * login form and sees only what the role allows — its menu, the write buttons present or absent, a
 * team role on its team's page, a page outside the role refused. Keycloak is obtained once for the
 * class ({@link LocalKeycloak}); a state-service replica that trusts its issuer serves the console.
 */
class SsoConsoleIT extends ConsoleTest {

    private static final String TEAM = "team-demo";
    private static final By USER_MENU = By.cssSelector("[data-testid=user-menu]");
    private static final By TABLE = By.cssSelector(".ant-table");
    private static final By TEAM_ROW = By.cssSelector("tr[data-team-id='" + TEAM + "']");

    private static LocalKeycloak keycloak;
    private static ServiceProcess state;

    @BeforeAll
    static void startKeycloakAndAStateThatTrustsIt() {
        keycloak = LocalKeycloak.obtain(system.root(), system.logDir());
        state = system.startExtraState(keycloak.stateEnvironment());
        // the realm's team roles belong to team-demo: the team exists, as in the local run's demo data
        Http.Response team = system.admin().call("GET", "/teams/" + TEAM, null);
        if (team.status() == 404) {
            system.admin().expect(201, "POST", "/teams", Map.of("id", TEAM, "name", "Demo team"));
        }
    }

    @AfterAll
    static void stopKeycloak() {
        if (keycloak != null) {
            keycloak.close();
        }
    }

    @Override
    protected String consoleUrl() {
        return state.baseUrl() + "/console/";
    }

    @Test
    void anAdminSeesEveryPageAndEveryWrite() {
        signInAs("admin", "admin");
        assertThat(navItems())
                .contains("nav-overview", "nav-credentials", "nav-teams", "nav-settings", "nav-webhooks", "nav-audit");
        page("credentials", "credential-create");
        page("teams", "team-create");
        page("settings", "settings-save");
        page("webhooks", "webhook-create");
        browser.screenshot("sso-admin");
    }

    @Test
    void anOperatorRunsThePoolButReadsTheSettingsOnly() {
        signInAs("operator", "operator");
        assertThat(navItems()).contains("nav-credentials", "nav-groups", "nav-settings");
        page("credentials", "credential-create");
        browser.visible(By.cssSelector("[data-testid=batch-bar]"));
        page("groups", "group-create");
        page("accessKeys", "key-create");
        page("settings", "read-only");
        absent("settings-save", "price-add");
        rendered("teams", TEAM_ROW);
        absent("team-create", "team-edit", "team-delete");
        rendered("webhooks", TABLE);
        absent("webhook-create");
        browser.screenshot("sso-operator-settings");
    }

    @Test
    void aViewerSeesEveryListAndNoWriteButton() {
        signInAs("viewer", "viewer");
        assertThat(navItems()).contains("nav-overview", "nav-credentials", "nav-settings");
        // the run's database may hold no credential yet: the rendered table proves the page is up
        rendered("credentials", TABLE);
        absent("credential-create", "batch-bar", "credential-archive");
        rendered("groups", TABLE);
        absent("group-create", "group-delete");
        rendered("accessKeys", TABLE);
        absent("key-create", "key-delete");
        page("settings", "read-only");
        absent("settings-save");
        browser.screenshot("sso-viewer-credentials");
    }

    @Test
    void aTeamAdminLandsOnItsTeamAndManagesItsKeys() {
        signInAs("team-admin", "team_admin");
        browser.withText(By.cssSelector("[data-testid=own-team]"), "你的团队：Demo team");
        List<String> nav = navItems();
        assertThat(nav).contains("nav-teams", "nav-accessKeys", "nav-usage", "nav-requests", "nav-routeCheck");
        assertThat(nav).doesNotContain("nav-overview", "nav-credentials", "nav-groups", "nav-settings", "nav-audit");
        browser.visible(TEAM_ROW);
        absent("team-create", "team-edit");
        page("accessKeys", "key-create");
        browser.screenshot("sso-team-admin-keys");
        forbidden("settings");
    }

    @Test
    void aTeamMemberLandsOnItsTeamReadsItsUsageAndIsRefusedTheRest() {
        signInAs("team-member", "team_member");
        browser.withText(By.cssSelector("[data-testid=own-team]"), "你的团队：Demo team");
        browser.visible(TEAM_ROW);
        List<String> nav = navItems();
        assertThat(nav).contains("nav-teams", "nav-accessKeys", "nav-usage", "nav-requests", "nav-routeCheck");
        assertThat(nav).doesNotContain("nav-overview", "nav-credentials", "nav-settings", "nav-webhooks", "nav-audit");
        rendered("accessKeys", TABLE);
        absent("key-create", "key-delete");
        page("usage", "usage-export");
        assertThat(browser.all(By.cssSelector(".ant-alert-error")))
                .as("usage without errors")
                .isEmpty();
        rendered("requests", TABLE);
        absent("page-load-failed");
        browser.screenshot("sso-team-member-requests");
        forbidden("credentials");
        forbidden("settings");
    }

    /** Signs in on Keycloak's login form and waits for the console to name the user and role. */
    private void signInAs(String user, String role) {
        browser.open(consoleUrl());
        browser.click(By.id("sso-sign-in"));
        browser.type(By.id("username"), user);
        browser.type(By.id("password"), user + "-local");
        browser.click(By.id("kc-login"));
        String shown = browser.await(
                "the user menu of " + user,
                d -> d.findElements(USER_MENU).stream()
                        .filter(e -> e.isDisplayed() && role.equals(e.getAttribute("data-role")))
                        .findFirst()
                        .map(e -> e.getText())
                        .orElse(null));
        assertThat(shown).startsWith(user);
    }

    /** Opens a page and waits for an element that shows it loaded. */
    private void page(String name, String proofTestId) {
        browser.open(consoleUrl() + "#/" + name);
        browser.visible(By.cssSelector("[data-testid=" + proofTestId + "]"));
    }

    /** Opens a page and waits until it has rendered what proves it (its table, a row). */
    private void rendered(String name, By proof) {
        browser.open(consoleUrl() + "#/" + name);
        browser.visible(proof);
    }

    private void forbidden(String name) {
        browser.open(consoleUrl() + "#/" + name);
        browser.visible(By.cssSelector("[data-testid=page-forbidden]"));
    }

    private void absent(String... testIds) {
        for (String testId : testIds) {
            assertThat(browser.all(By.cssSelector("[data-testid=" + testId + "]")))
                    .as("no %s for this role", testId)
                    .isEmpty();
        }
    }

    private List<String> navItems() {
        browser.visible(By.cssSelector("[data-testid^=nav-]"));
        return browser.all(By.cssSelector("[data-testid^=nav-]")).stream()
                .map(e -> e.getAttribute("data-testid"))
                .toList();
    }
}
