package io.routegateway.e2e.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.routegateway.e2e.support.Http;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Teams page in a real browser (Debian's headless Chromium) against the real state-service: a
 * team created with limits, an AccessKey assigned to it from the key form, the team listed with its
 * key and budget, and its delete refused with {@code team.has_keys} while it owns the key, then
 * allowed once the key has left it. Screenshots land in {@code e2e-tests/target/console-screenshots}.
 */
class TeamsConsoleIT extends ConsoleTest {

    @Test
    void aTeamWithLimitsGetsAKeyAndCannotBeDeletedWhileItOwnsIt() {
        String suffix = Long.toString(System.nanoTime(), 36);
        String teamId = "team-" + suffix;
        String teamName = "Research " + suffix;
        String keyName = "notebook " + suffix;

        signIn();
        browser.open(consoleUrl() + "#/teams");

        // create the team with limits: 60 rpm, 4 parallel, $5 a day; tpm left empty = unlimited
        browser.click(By.cssSelector("[data-testid=team-create]"));
        browser.type(By.id("team-id"), teamId);
        browser.type(By.id("team-name"), teamName);
        replace(By.id("team-weight"), "3");
        browser.type(By.id("team-rpm_limit"), "60");
        browser.type(By.id("team-max_parallel_requests"), "4");
        browser.type(By.id("team-max_budget"), "5");
        choose("team-budget_duration", "1d · 1 天");
        browser.screenshot("teams-01-create-drawer");
        browser.click(By.id("team-save"));

        browser.withText(inTeamRow(teamId, "team-limits"), "60 rpm · 并发 4 · $5.00 / 1 天");
        browser.withText(inTeamRow(teamId, "team-weight"), "3");
        browser.withText(inTeamRow(teamId, "team-key-count"), "0");
        JsonNode stored = admin(200, "GET", "/teams/" + teamId, null);
        assertThat(stored.path("name").asText()).isEqualTo(teamName);
        assertThat(stored.path("weight").asInt()).isEqualTo(3);
        JsonNode limits = stored.path("limits");
        assertThat(limits.path("rpm_limit").asInt()).isEqualTo(60);
        assertThat(limits.path("max_parallel_requests").asInt()).isEqualTo(4);
        assertThat(limits.path("max_budget").decimalValue()).isEqualByComparingTo("5");
        assertThat(limits.path("budget_duration").asText()).isEqualTo("1d");
        assertThat(limits.path("tpm_limit").isNull())
                .as("an empty field is unlimited (null)")
                .isTrue();

        // an AccessKey assigned to the team from the key form
        browser.open(consoleUrl() + "#/accessKeys");
        browser.click(By.cssSelector("[data-testid=key-create]"));
        browser.type(By.id("key-name"), keyName);
        choose("key-team", teamName);
        browser.click(By.id("key-save"));
        browser.visible(By.cssSelector("[data-testid=key-plaintext]"));
        browser.click(
                By.xpath("//div[contains(@class,'ant-modal-footer')]//button[contains(@class,'ant-btn-primary')]"));
        browser.gone(By.cssSelector("[data-testid=key-plaintext]"));
        String keyId = keyIdNamed(keyName);
        assertThat(admin(200, "GET", "/access-keys/" + keyId, null)
                        .path("team_id")
                        .asText())
                .isEqualTo(teamId);
        browser.withText(By.cssSelector("tr[data-key-id='" + keyId + "'] [data-testid=key-team]"), teamName);
        browser.visible(By.cssSelector("tr[data-key-id='" + keyId + "'] [data-testid=spend-text]"));
        browser.screenshot("teams-02-key-with-team");

        // the team lists its key, its budget and what is left of it
        browser.open(consoleUrl() + "#/teams");
        browser.withText(inTeamRow(teamId, "team-key-count"), "1");
        browser.withText(inTeamRow(teamId, "spend-text"), "$0.00 / $5.00");
        browser.withText(inTeamRow(teamId, "headroom"), "$5.00");
        browser.click(inTeamRow(teamId, "team-open"));
        WebElement keys = browser.visible(By.cssSelector("[data-testid=team-detail-keys]"));
        browser.await("the team detail lists its key", d -> keys.getText().contains(keyName));
        browser.screenshot("teams-03-detail");
        browser.click(By.cssSelector(".ant-drawer-close"));
        browser.gone(By.cssSelector("[data-testid=team-detail-keys]"));

        // deleting it is refused while it owns the key, and the page says why
        browser.click(inTeamRow(teamId, "team-delete"));
        browser.click(By.cssSelector("[data-testid=team-delete-confirm]"));
        WebElement refusal = browser.visible(By.cssSelector("[data-testid=team-delete-error]"));
        assertThat(refusal.getText())
                .contains("team.has_keys")
                .contains(teamName)
                .contains("无法删除团队");
        browser.screenshot("teams-04-delete-refused");
        admin(200, "GET", "/teams/" + teamId, null);

        // in English too
        browser.click(By.xpath("//div[contains(@class,'ant-segmented-item')][normalize-space()='English']"));
        browser.withText(inTeamRow(teamId, "team-limits"), "60 rpm · 4 parallel · $5.00 / 1 day");
        assertThat(browser.visible(By.cssSelector("[data-testid=nav-teams]")).getText())
                .isEqualTo("Teams");
        browser.click(inTeamRow(teamId, "team-delete"));
        browser.click(By.cssSelector("[data-testid=team-delete-confirm]"));
        browser.await(
                "the refusal in English",
                d -> d.findElement(By.cssSelector("[data-testid=team-delete-error]"))
                        .getText()
                        .contains("cannot be deleted"));
        browser.click(By.xpath("//div[contains(@class,'ant-segmented-item')][normalize-space()='中文']"));

        // once the key has left the team, the delete goes through
        admin(
                200,
                "PATCH",
                "/access-keys/" + keyId,
                JsonNodeFactory.instance.objectNode().putNull("team_id"));
        browser.withText(inTeamRow(teamId, "team-key-count"), "0");
        browser.click(inTeamRow(teamId, "team-delete"));
        browser.click(By.cssSelector("[data-testid=team-delete-confirm]"));
        browser.gone(By.cssSelector("tr[data-team-id='" + teamId + "']"));
        admin(404, "GET", "/teams/" + teamId, null);
    }

    /**
     * Replaces a field's text the way a person does (select all, type): Selenium's clear() does not
     * reach React's state, so a field holding a default (the weight's 1) would keep it.
     */
    private void replace(By by, String text) {
        WebElement field = browser.visible(by);
        field.sendKeys(Keys.chord(Keys.CONTROL, "a"), text);
    }

    private JsonNode admin(int status, String method, String path, Object body) {
        return system.admin().expect(status, method, path, body);
    }

    private String keyIdNamed(String name) {
        Http.Response response = system.admin().call("GET", "/access-keys", null);
        for (JsonNode key : response.json()) {
            if (key.path("name").asText().equals(name)) {
                return key.path("id").asText();
            }
        }
        throw new AssertionError("no AccessKey named " + name + ": " + response);
    }

    /** Opens the antd select whose input has this id and picks the option with this label. */
    private void choose(String selectId, String label) {
        browser.clickUntil(
                By.xpath("//input[@id='" + selectId + "']/ancestor::div[contains(@class,'ant-select')][1]"),
                By.cssSelector(".ant-select-dropdown:not(.ant-select-dropdown-hidden)"));
        browser.click(By.xpath("//div[contains(@class,'ant-select-item-option') and @title='" + label + "']"));
    }

    private static By inTeamRow(String teamId, String testId) {
        return By.cssSelector("tr[data-team-id='" + teamId + "'] [data-testid=" + testId + "]");
    }
}
