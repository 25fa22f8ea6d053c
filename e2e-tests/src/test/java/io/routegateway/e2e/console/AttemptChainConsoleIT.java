package io.routegateway.e2e.console;

import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's failover explained in the console: the request-log detail shows the four attempts
 * (two same-credential retries and a failover on the throttled account, then the success on the
 * other) with their statuses; and the overview's numbers move under traffic.
 */
class AttemptChainConsoleIT extends ConsoleTest {

    private static final String SOL = "gpt-5.6-sol";
    private static final String UPSTREAM_SOL = "upstream-sol";

    @Test
    void theReadmeFailoverShowsItsFourAttemptsInTheRequestDetail() {
        Pool pool = Pool.create(system);
        String primary = pool.credential("primary", c -> c.priority(0).map(SOL, UPSTREAM_SOL));
        String other = pool.credential("other", c -> c.priority(1).map(SOL, UPSTREAM_SOL));
        String key = pool.accessKey(pool.group("main", primary, other));
        pool.awaitVisible(key);
        system.demo().setBehaviour(primary, new Behaviour(Mode.STATUS, 429, UPSTREAM_SOL, 0, 0));

        Http.Response response = system.gateway().chat(key, SOL);
        assertThat(response.status())
                .as("the client sees no failure: %s", response)
                .isEqualTo(200);
        assertThat(response.servedBy()).isEqualTo(other);

        JsonNode logged = await("the request reaches the log")
                .atMost(Duration.ofSeconds(30))
                .until(
                        () -> system.admin()
                                .expect(200, "GET", "/requests?access_key_id=" + pool.accessKeyId(), null)
                                .path("items"),
                        items -> items.size() == 1);
        String requestId = logged.get(0).path("request_id").asText();
        JsonNode chain = system.admin()
                .expect(200, "GET", "/requests/" + requestId, null)
                .path("attempt_chain");
        assertThat(chain.size()).as("the API's chain: %s", chain).isEqualTo(4);

        signIn();
        browser.open(consoleUrl() + "#/requests");
        browser.click(By.cssSelector("tr[data-request-id='" + requestId + "']"));
        browser.await(
                "four attempts",
                d -> d.findElements(By.cssSelector("[data-testid=attempt]")).size() == 4 ? true : null);
        var attempts = browser.all(By.cssSelector("[data-testid=attempt]"));
        assertThat(attempts)
                .extracting(a -> a.getAttribute("data-decision"))
                .containsExactly("retry_same", "retry_same", "fail_over", "success");
        assertThat(attempts).extracting(a -> a.getAttribute("data-status")).containsExactly("429", "429", "429", "200");
        assertThat(attempts.get(0).getText()).contains("同一凭证重试").contains("429").contains("upstream_status");
        assertThat(attempts.get(2).getText()).contains("切换到下一个凭证").contains("仅该模型");
        assertThat(attempts.get(3).getText()).contains("成功返回");
        browser.screenshot("20-request-detail-attempt-chain-zh");
    }

    @Test
    void theOverviewShowsNumbersMovingUnderTraffic() {
        Pool pool = Pool.create(system);
        String only = pool.credential("only", c -> c.priority(0).map(SOL, UPSTREAM_SOL));
        String key = pool.accessKey(pool.group("main", only));
        pool.awaitVisible(key);

        signIn();
        browser.open(consoleUrl() + "#/overview");
        WebElement requests = browser.visible(By.cssSelector("[data-testid=overview-requests]"));
        long before = Long.parseLong(requests.getText().replaceAll("\\D", ""));
        for (int i = 0; i < 5; i++) {
            assertThat(system.gateway().chat(key, SOL).status()).isEqualTo(200);
        }
        long after = browser.await("the overview counts the new requests without a reload", d -> {
            long now = Long.parseLong(d.findElement(By.cssSelector("[data-testid=overview-requests]"))
                    .getText()
                    .replaceAll("\\D", ""));
            return now >= before + 5 ? now : null;
        });
        assertThat(after).isGreaterThanOrEqualTo(before + 5);
        assertThat(browser.visible(By.cssSelector("[data-testid=overview-success]"))
                        .getText())
                .endsWith("%");
        assertThat(browser.visible(By.cssSelector("[data-testid=overview-p50]")).getText())
                .contains("ms");
        browser.screenshot("21-overview-under-traffic");
    }
}
