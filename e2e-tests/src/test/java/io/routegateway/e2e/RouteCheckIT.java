package io.routegateway.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admin API's route check (a dry run on state-service) and a real request through the gateway
 * (which routes from its own view, built from the state topics) reach the same decision: the same
 * credential, or the same refusal code and HTTP status, in each situation.
 */
class RouteCheckIT extends EndToEndTest {

    private static final String SOL = "gpt-5.6-sol";
    private static final String UPSTREAM_SOL = "upstream-sol";
    private static final String UNMAPPED = "model-nobody-maps";

    /** What one side decided: the serving credential, or the refusal's HTTP status and code. */
    private record Decision(String credential, int status, String code) {

        static Decision of(JsonNode check) {
            if ("selected".equals(check.path("decision").asText())) {
                return new Decision(check.path("selected").path("credential_id").asText(), 200, null);
            }
            return new Decision(
                    null,
                    check.path("http_status").asInt(),
                    check.path("reason_code").asText());
        }

        static Decision of(Http.Response response) {
            return response.status() == 200
                    ? new Decision(response.servedBy(), 200, null)
                    : new Decision(null, response.status(), response.errorCode());
        }
    }

    @Test
    void routeCheckAgreesWithWhatARealRequestDoes() {
        EventLedger ledger = EventLedger.start(system);
        Pool pool = Pool.create(system);
        String first = pool.credential("first", c -> c.priority(0).map(SOL, UPSTREAM_SOL));
        String second = pool.credential("second", c -> c.priority(1).map(SOL, UPSTREAM_SOL));
        // the group exposes a model that no account maps: route_pool.model_unmatched, not no_available_group
        String key = pool.accessKey(pool.group("main", List.of(SOL, UNMAPPED), first, second));
        pool.awaitVisible(key);
        GatewayClient client = system.gateway();
        List<String> agreed = new ArrayList<>();

        // both serve: the lower priority number first
        agreed.add(agree(key, SOL, new Decision(first, 200, null), client));

        // the first one's model paused by an operator: the second one serves
        system.admin().pauseModel(first, UPSTREAM_SOL);
        agreed.add(agree(key, SOL, new Decision(second, 200, null), client));

        // paused on both: accounts serve the model, none may -> route_pool.model_unavailable
        system.admin().pauseModel(second, UPSTREAM_SOL);
        agreed.add(agree(key, SOL, new Decision(null, 502, "route_pool.model_unavailable"), client));

        // exposed, but no account maps it -> route_pool.model_unmatched, a different code
        agreed.add(agree(key, UNMAPPED, new Decision(null, 502, "route_pool.model_unmatched"), client));

        // exposed by no group of the key -> no_available_group
        agreed.add(agree(key, "model-nobody-exposes", new Decision(null, 502, "no_available_group"), client));

        // resumed: back to the first
        system.admin().resumeModel(first, UPSTREAM_SOL);
        system.admin().resumeModel(second, UPSTREAM_SOL);
        agreed.add(agree(key, SOL, new Decision(first, 200, null), client));

        // the key disabled: refused before routing
        system.admin()
                .patchAccessKey(pool.accessKeyId(), Http.JSON.createObjectNode().put("enabled", false));
        JsonNode disabled = system.admin().routeCheck(key, "openai_chat", SOL);
        assertThat(disabled.path("reason_code").asText()).isEqualTo("access_key_disabled");
        agreed.add(agree(key, SOL, Decision.of(disabled), client));

        EventLedger.Counts counts = ledger.settle(pool.credentials(), false);
        EventLedger.summary("RouteCheckIT", "situations=" + agreed.size(), "agreed=" + agreed, counts);
        assertThat(counts.missing()).isEmpty();
    }

    /**
     * The route check must answer {@code expected} at once (it reads the database); the gateway must
     * come to the same decision once the change has reached its view.
     */
    private static String agree(String key, String model, Decision expected, GatewayClient client) {
        JsonNode check = system.admin().routeCheck(key, "openai_chat", model);
        assertThat(Decision.of(check)).as("route check: %s", check).isEqualTo(expected);
        await("gateway agrees with route check " + expected)
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(
                        () -> assertThat(Decision.of(client.chat(key, model))).isEqualTo(expected));
        return expected.credential() != null ? "selected" : expected.code();
    }
}
