package io.routegateway.e2e.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.routegateway.e2e.support.Pool;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console as delivered: what the first page costs (measured and printed, never asserted as a
 * time), the favicon, conditional polling, and an open page surviving an upgrade that removed the
 * chunks it was built with.
 */
class ConsoleQualityIT extends ConsoleTest {

    @Test
    void theFirstPageIsSplitCompressedAndHasAFavicon() {
        browser.open(consoleUrl());
        browser.visible(By.id("admin-token"));
        Object loginFigures = browser.script(FIGURES);
        // signing in at / lands on the overview
        signInHere();
        browser.visible(By.cssSelector("[data-testid=overview]"));
        browser.visible(By.cssSelector(".ant-menu-item-selected [data-testid=nav-overview]"));
        Object overviewFigures = browser.script(FIGURES);
        System.out.println("console first paint and JS transferred, login page: " + loginFigures);
        System.out.println("console first paint and JS transferred, overview (landing) page: " + overviewFigures);
        @SuppressWarnings("unchecked")
        Map<String, Object> figures = (Map<String, Object>) overviewFigures;
        assertThat(((Number) figures.get("scripts")).intValue())
                .as("the bundle is split: more than one script")
                .isGreaterThan(1);
        assertThat(((Number) figures.get("jsDecoded")).longValue())
                .as("scripts arrive compressed")
                .isGreaterThan(((Number) figures.get("jsTransferred")).longValue() * 2);
        @SuppressWarnings("unchecked")
        List<String> scripts = (List<String>) figures.get("names");
        assertThat(scripts)
                .as("other pages' chunks are not loaded")
                .noneMatch(name -> name.contains("/Groups-")
                        || name.contains("/RouteCheck-")
                        || name.contains("/Usage-")
                        || name.contains("/Credentials-"));
        assertThat(browser.script("var l=document.querySelector('link[rel=icon]');"
                        + "return l ? fetch(l.href).then(r => r.status) : 0"))
                .as("the favicon is served")
                .isEqualTo(200L);
    }

    @Test
    void anUnchangedListPolledAgainCostsA304() {
        signIn();
        browser.await("a poll answered 304", d -> (Boolean)
                browser.script("return performance.getEntriesByType('resource').some(e => e.name.includes('/admin/v1/')"
                        + " && e.responseStatus === 304)"));
        System.out.println("console polls: "
                + browser.script(
                        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/admin/v1/'))"
                                + ".map(e => e.name.replace(location.origin, '') + ' ' + e.responseStatus + ' '"
                                + " + e.transferSize).join('\\n')"));
    }

    @Test
    void aPageWhoseChunkIsGoneAfterAnUpgradeReloadsInsteadOfGoingBlank() {
        signIn();
        browser.script("window.__openedBeforeUpgrade = true; sessionStorage.removeItem('console.chunk-reload-at')");
        browser.cdp("Network.enable", Map.of());
        // the chunks of the Groups page as the build this page was loaded with named them: gone
        browser.cdp("Network.setBlockedURLs", Map.of("urls", List.of("*/console/assets/Groups-*")));
        browser.click(By.cssSelector("[data-testid=nav-groups]"));
        browser.await("the page reloaded to fetch the new bundle", d -> {
            try {
                return browser.script(
                                        "return window.__openedBeforeUpgrade === undefined && document.readyState === 'complete'")
                                .equals(Boolean.TRUE)
                        ? true
                        : null;
            } catch (org.openqa.selenium.WebDriverException reloading) {
                return null;
            }
        });
        // still unreachable right after the reload: a way back instead of a blank page
        browser.visible(By.cssSelector("[data-testid=page-load-failed]"));
        browser.screenshot("quality-01-chunk-gone-after-upgrade");
        browser.cdp("Network.setBlockedURLs", Map.of("urls", List.of()));
        browser.click(By.cssSelector("[data-testid=page-reload]"));
        browser.visible(By.cssSelector("[data-testid=group-create]"));
    }

    @Test
    void weightZeroShowsTheCodeAndARefusedSaveThenAFixClearsTheError() {
        signIn();
        browser.click(By.cssSelector("[data-testid=credential-create]"));
        browser.type(By.id("credential-name-input"), "form check " + System.nanoTime());
        browser.type(By.id("credential-base-url"), "https://relay.example.com");
        browser.type(By.id("credential-secret"), "sk-form-check-0000000000");
        browser.click(By.xpath("//label[contains(@class,'ant-radio-wrapper')][normalize-space()='手动']"));
        browser.type(By.id("credential-weight"), "0");
        browser.click(By.cssSelector("[data-testid=credential-save]"));
        browser.await(
                "weight 0 shows the API's code",
                d -> fieldError("credential-weight").contains("validation.weight") ? true : null);
        assertThat(browser.visible(By.id("credential-weight")).getAttribute("value"))
                .as("0 is not coerced to 1")
                .isEqualTo("0");
        replace(By.id("credential-weight"), "5");
        browser.await(
                "the error goes once the value changes",
                d -> fieldError("credential-weight").isEmpty() ? true : null);

        // an error on the hidden 故障处理 tab selects and marks it
        browser.click(By.cssSelector("[data-testid=tab-failure]"));
        replace(By.id("policy-retry-interval"), "70000");
        browser.click(By.cssSelector("[data-testid=tab-basic]"));
        browser.gone(By.id("policy-retry-interval"));
        browser.click(By.cssSelector("[data-testid=credential-save]"));
        browser.visible(By.cssSelector("[data-testid=tab-failure-error]"));
        browser.await(
                "the failure tab is shown with the error",
                d -> fieldError("policy-retry-interval").contains("validation.route_credential_failure_policy")
                        ? true
                        : null);
        browser.screenshot("quality-02-error-on-failure-tab");
        replace(By.id("policy-retry-interval"), "100");
        browser.gone(By.cssSelector("[data-testid=tab-failure-error]"));
        // the error's text leaves with antd's fade-out: wait until it is gone
        browser.await(
                "the failure tab's error goes once the value changes",
                d -> fieldError("policy-retry-interval").isEmpty() ? true : null);
    }

    @Test
    void aMisspeltFieldIsRefusedByTheApiWithUnknownField() {
        signIn();
        String id = Pool.create(system).credential("typo", c -> c.priority(0));
        Object answer = browser.asyncScript(
                "var done = arguments[arguments.length - 1];"
                        + "fetch('/admin/v1/credentials/' + encodeURIComponent(arguments[0]), {method: 'PATCH',"
                        + " headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + sessionStorage.getItem('console.admin-token')},"
                        + " body: JSON.stringify({failure_policy: {cooldown_second: 60}})})"
                        + ".then(function (r) { return r.text().then(function (t) { done(r.status + ' ' + t); }); })"
                        + ".catch(function (e) { done('failed ' + e); });",
                id);
        assertThat(answer.toString())
                .startsWith("400 ")
                .contains("validation.unknown_field")
                .contains("cooldown_second");
    }

    @Test
    void everyTrafficStoppingActionAsksFirstAndSaysWhatChanged() {
        Pool pool = Pool.create(system);
        String id = pool.credential("ask", c -> c.priority(0));
        String name = system.admin().credential(id).path("name").asText();
        signIn();
        By row = By.cssSelector("tr[data-credential-id='" + id + "']");
        browser.visible(row);

        // disable: asks, and cancelling leaves it enabled
        browser.click(By.cssSelector("tr[data-credential-id='" + id + "'] [data-testid=credential-enabled]"));
        browser.visible(By.cssSelector(".ant-popconfirm"));
        assertThat(browser.visible(By.cssSelector(".ant-popconfirm")).getText()).contains(name);
        assertThat(system.admin().credential(id).path("enabled").asBoolean()).isTrue();
        browser.click(By.cssSelector(".ant-popconfirm .ant-btn-primary"));
        browser.await(
                "a message names the disabled credential", d -> messageText().contains(name) ? true : null);
        browser.await(
                "disabled", d -> !system.admin().credential(id).path("enabled").asBoolean() ? true : null);

        // archive asks
        browser.click(By.cssSelector("tr[data-credential-id='" + id + "'] [data-testid=credential-archive]"));
        browser.visible(By.cssSelector(".ant-popconfirm"));
        browser.driver().findElement(By.cssSelector("body")).sendKeys(org.openqa.selenium.Keys.ESCAPE);

        // batch pause on the selected credential asks, then names it
        browser.click(By.cssSelector("tr[data-credential-id='" + id + "'] .ant-checkbox"));
        browser.withText(By.cssSelector("[data-testid=batch-count]"), "已选 1 个");
        browser.click(By.cssSelector("[data-testid=batch-pause]"));
        browser.await(
                "the batch pause asks",
                d -> d.findElements(By.cssSelector(".ant-popconfirm")).stream()
                                .filter(org.openqa.selenium.WebElement::isDisplayed)
                                .anyMatch(e -> e.getText().contains("1"))
                        ? true
                        : null);
        browser.screenshot("quality-03-batch-pause-asks");
        clickVisible(By.cssSelector(".ant-popconfirm .ant-btn-primary"));
        browser.await(
                "a message names the paused credential", d -> messageText().contains(name) ? true : null);
        browser.await(
                "paused",
                d -> system.admin().credential(id).path("status").asText().equals("paused") ? true : null);

        // the drawer's account pause asks too (resume first)
        browser.click(By.cssSelector("[data-testid=batch-resume]"));
        browser.await(
                "resumed",
                d -> !system.admin().credential(id).path("status").asText().equals("paused") ? true : null);
        browser.click(By.cssSelector("tr[data-credential-id='" + id + "'] [data-testid=credential-edit]"));
        browser.visible(By.cssSelector(".ant-drawer-content"));
        browser.click(By.cssSelector("[data-testid=account-pause]"));
        browser.await(
                "the account pause asks",
                d -> d.findElements(By.cssSelector(".ant-popconfirm")).stream()
                                .filter(org.openqa.selenium.WebElement::isDisplayed)
                                .anyMatch(e -> e.getText().contains(name))
                        ? true
                        : null);
        assertThat(system.admin().credential(id).path("status").asText()).isNotEqualTo("paused");
    }

    @Test
    void atEightHundredPixelsTheMenuButtonLeavesNewClickableAndAtALaptopNothingOverflows() {
        browser.resize(800, 900);
        signIn();
        org.openqa.selenium.WebElement toggle = browser.visible(By.cssSelector("[data-testid=menu-toggle]"));
        assertThat(toggle.getAttribute("aria-label")).isNotBlank();
        assertThat(browser.script(
                        "var b = document.querySelector('[data-testid=credential-create]').getBoundingClientRect();"
                                + "var e = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);"
                                + "return !!(e && e.closest('[data-testid=credential-create]'));"))
                .as("nothing covers 新建")
                .isEqualTo(Boolean.TRUE);
        toggle.click();
        org.openqa.selenium.WebElement nav = browser.visible(By.cssSelector("[data-testid=nav-routeCheck]"));
        browser.await(
                "the open menu shows names on one line",
                d -> nav.getSize().getHeight() < 30 && nav.getSize().getWidth() > 40 ? true : null);
        browser.screenshot("quality-04-menu-at-800px");
        nav.click();
        browser.visible(By.id("route-check-key"));
        browser.resize(1366, 768);
        browser.open(consoleUrl() + "#/credentials");
        browser.visible(By.cssSelector("[data-testid=credential-create]"));
        assertThat(browser.all(By.cssSelector("[data-testid=menu-toggle]")))
                .as("the menu is a sidebar at 1366 px")
                .isEmpty();
        assertThat(browser.script("return document.documentElement.scrollWidth <= window.innerWidth"))
                .as("the page does not overflow sideways at 1366 px")
                .isEqualTo(Boolean.TRUE);
        browser.screenshot("quality-05-credentials-at-1366px");
    }

    @Test
    void routeCheckForAOneGroupKeyShowsThatGroupAndTheToggleShowsTheRest() {
        Pool pool = Pool.create(system);
        String scoped = pool.credential("scoped", c -> c.priority(0).map("gpt-5.6-sol", "upstream-sol"));
        String elsewhere = pool.credential("elsewhere", c -> c.priority(0).map("gpt-5.6-sol", "upstream-sol"));
        String group = pool.group("scoped", scoped);
        pool.group("elsewhere", elsewhere);
        String key = pool.accessKey(group);
        pool.awaitVisible(key);
        signIn();
        browser.open(consoleUrl() + "#/routeCheck");
        browser.type(By.id("route-check-key"), key);
        browser.type(By.id("route-check-model"), "gpt-5.6-sol");
        browser.click(By.id("route-check-run"));
        browser.withText(By.cssSelector("[data-testid=route-check-decision]"), "已选中");
        By groups = By.cssSelector("[data-testid=trace-group]");
        List<String> shown = browser.all(groups).stream()
                .filter(org.openqa.selenium.WebElement::isDisplayed)
                .map(org.openqa.selenium.WebElement::getText)
                .toList();
        assertThat(shown).as("only the key's group by default").hasSize(1);
        assertThat(shown.get(0)).contains("e2e scoped").doesNotContain("group_filtered");
        browser.screenshot("quality-07-route-check-one-group");

        browser.click(By.cssSelector("[data-testid=trace-toggle-outside]"));
        List<String> all = browser.await("the toggle shows the groups outside the key's scope", d -> {
            List<String> texts = d.findElements(groups).stream()
                    .filter(org.openqa.selenium.WebElement::isDisplayed)
                    .map(org.openqa.selenium.WebElement::getText)
                    .toList();
            return texts.size() > 1 ? texts : null;
        });
        assertThat(all).anyMatch(text -> text.contains("e2e elsewhere") && text.contains("group_filtered"));
        browser.click(By.cssSelector("[data-testid=trace-toggle-outside]"));
        browser.await(
                "the toggle hides them again",
                d -> d.findElements(groups).stream()
                                        .filter(org.openqa.selenium.WebElement::isDisplayed)
                                        .count()
                                == 1
                        ? true
                        : null);
    }

    @Test
    void focusOpensWhatHoverOpens() {
        Pool pool = Pool.create(system);
        String primary =
                pool.credential("focus", c -> c.priority(0).cooldownSeconds(600).map("gpt-5.6-sol", "upstream-sol"));
        String other = pool.credential("focus-b", c -> c.priority(1).map("gpt-5.6-sol", "upstream-sol"));
        String key = pool.accessKey(pool.group("focus", primary, other));
        pool.awaitVisible(key);
        system.demo()
                .setBehaviour(
                        primary,
                        new io.routegateway.demo.Behaviour(
                                io.routegateway.demo.Behaviour.Mode.STATUS, 429, "upstream-sol", 0, 0));
        assertThat(system.gateway().chat(key, "gpt-5.6-sol").status()).isEqualTo(200);
        org.awaitility.Awaitility.await("the failure reaches state-service")
                .atMost(java.time.Duration.ofSeconds(30))
                .until(() -> !system.admin()
                        .credential(primary)
                        .path("unavailable_models_badge")
                        .isNull());
        signIn();
        By badge = By.cssSelector("tr[data-credential-id='" + primary + "'] [data-testid=models-badge]");
        org.openqa.selenium.WebElement element = browser.visible(badge);
        assertThat(element.getAttribute("tabindex"))
                .as("the badge takes keyboard focus")
                .isEqualTo("0");
        browser.script("arguments[0].focus()", element);
        browser.visible(By.cssSelector("[data-testid=models-panel]"));
        browser.screenshot("quality-06-badge-panel-on-focus");
        system.demo().reset(primary);
    }

    /** Replaces a field's text as a user does (select all, type): WebDriver's clear() bypasses React's onChange. */
    private void replace(By by, String text) {
        browser.visible(by)
                .sendKeys(
                        org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"),
                        org.openqa.selenium.Keys.BACK_SPACE,
                        text);
    }

    private String messageText() {
        return String.valueOf(
                browser.script(
                        "return Array.from(document.querySelectorAll('.ant-message-notice')).map(e => e.innerText).join('\\n')"));
    }

    /** Clicks the last visible match (the popconfirm just opened is the last one in the page). */
    private void clickVisible(By by) {
        browser.await("click " + by, d -> {
            List<org.openqa.selenium.WebElement> shown = d.findElements(by).stream()
                    .filter(org.openqa.selenium.WebElement::isDisplayed)
                    .toList();
            if (shown.isEmpty()) {
                return null;
            }
            shown.get(shown.size() - 1).click();
            return true;
        });
    }

    /** The error shown under a form field (empty when none). */
    private String fieldError(String inputId) {
        return String.valueOf(browser.script(
                "var i = document.getElementById(arguments[0]); var item = i && i.closest('.ant-form-item');"
                        + "var e = item && item.querySelector('.ant-form-item-explain-error'); return e ? e.innerText : '';",
                inputId));
    }

    /** The console's pages, as App.tsx names them in the URL. */
    private static final List<String> PAGES = List.of(
            "overview",
            "credentials",
            "groups",
            "teams",
            "accessKeys",
            "routeCheck",
            "requests",
            "usage",
            "health",
            "webhooks",
            "settings",
            "audit");

    private static final Path AXE = Path.of("..", "console", "node_modules", "axe-core", "axe.min.js");

    /** The serious and critical axe-core violations on the page as it is now (an empty list when clean). */
    private List<String> axeViolations(String where) {
        try {
            if (!Boolean.TRUE.equals(browser.script("return typeof window.axe === 'object'"))) {
                browser.script(Files.readString(AXE));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("axe-core is installed by the console's npm ci: " + AXE.toAbsolutePath(), e);
        }
        // colours are judged as they end, not half-way through antd's 0.2 s transition (a button enabled as its
        // page's data arrives was once read between its disabled and its enabled colours)
        browser.script("if (!document.getElementById('axe-no-transitions')) {"
                + "  var style = document.createElement('style'); style.id = 'axe-no-transitions';"
                + "  style.textContent = '*, *::before, *::after { transition: none !important;"
                + " animation: none !important; }';"
                + "  document.head.appendChild(style); }");
        Object result = browser.asyncScript("var done = arguments[arguments.length - 1];"
                + "axe.run(document, {resultTypes: ['violations']}).then(function (r) {"
                + "  done(r.violations.filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })"
                + "    .map(function (v) { return v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 4).map(function (n) {"
                + "      return n.target.join(' ') + ' :: ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 200); }).join(' | '); }));"
                + "}).catch(function (e) { done(['axe failed: ' + e]); });");
        @SuppressWarnings("unchecked")
        List<String> violations = (List<String>) result;
        System.out.println("axe " + where + ": " + (violations.isEmpty() ? "clean" : String.join("\n  ", violations)));
        return violations.stream().map(v -> where + ": " + v).toList();
    }

    private void settle() {
        browser.await(
                "the page has loaded",
                d -> browser.script("return !document.querySelector('[data-testid=page-loading], .ant-spin-spinning')")
                        .equals(Boolean.TRUE));
    }

    @Test
    void everyPageHasNoSeriousOrCriticalAxeViolations() {
        List<String> violations = new java.util.ArrayList<>();
        browser.open(consoleUrl());
        browser.visible(By.id("admin-token"));
        violations.addAll(axeViolations("login"));
        signIn();
        for (String page : PAGES) {
            browser.open(consoleUrl() + "#/" + page);
            browser.visible(By.cssSelector("[data-testid=nav-" + page + "]"));
            settle();
            violations.addAll(axeViolations(page));
        }
        browser.open(consoleUrl() + "#/credentials");
        browser.click(By.cssSelector("[data-testid=credential-create]"));
        browser.visible(By.cssSelector(".ant-drawer-content"));
        settle();
        violations.addAll(axeViolations("credential drawer"));
        assertThat(violations).as("serious or critical axe-core violations").isEmpty();
    }

    /** Paint timings and the scripts transferred so far (bytes on the wire and decoded). */
    private static final String FIGURES = "var paint = {};"
            + "performance.getEntriesByType('paint').forEach(e => paint[e.name] = Math.round(e.startTime));"
            + "var js = performance.getEntriesByType('resource').filter(e => e.name.endsWith('.js'));"
            + "var nav = performance.getEntriesByType('navigation')[0];"
            + "return {firstPaintMs: paint['first-paint'] || -1, firstContentfulPaintMs: paint['first-contentful-paint'] || -1,"
            + " domContentLoadedMs: nav ? Math.round(nav.domContentLoadedEventEnd) : -1,"
            + " scripts: js.length, jsTransferred: js.reduce((s, e) => s + e.transferSize, 0),"
            + " jsDecoded: js.reduce((s, e) => s + e.decodedBodySize, 0), names: js.map(e => e.name)};";
}
