package io.routegateway.e2e.console;

import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.RouteSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.By;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the console's browser tests: a fresh headless Chromium per test (closed after it), the
 * console's address on the shared system's state-service, and signing in. Not a test class itself:
 * the console tests share the one system the e2e run boots.
 */
abstract class ConsoleTest extends EndToEndTest {

    protected Browser browser;

    @BeforeEach
    void startBrowser() {
        assertThat(Browser.available())
                .as("%s and %s (apt-get install chromium chromium-driver)", Browser.CHROMIUM, Browser.CHROMEDRIVER)
                .isTrue();
        browser = new Browser();
    }

    @AfterEach
    void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    protected String consoleUrl() {
        return system.state().baseUrl() + "/console/";
    }

    /**
     * Signs in on the credentials page's route and waits for its list: the console keeps the route
     * it was opened at (signing in at {@code /} lands on the overview).
     */
    protected void signIn() {
        browser.open(consoleUrl() + "#/credentials");
        signInHere();
        browser.visible(By.cssSelector("[data-testid=credential-create]"));
    }

    /** Types the admin token into the sign-in form on screen and submits it. */
    protected void signInHere() {
        browser.type(By.id("admin-token"), RouteSystem.ADMIN_TOKEN);
        browser.click(By.id("sign-in"));
    }
}
