package io.routegateway.gateway.forward;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.bridge.BridgePlan;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ProtocolRule;
import io.routegateway.core.select.RouteRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a request keeps once its stream is committed: no prompt, everything the records need. */
class ProxyRequestTests {

    @Test
    void aCommittedStreamLetsGoOfTheBodyAndItsConversionsAndKeepsWhatTheRecordsNeed() throws Exception {
        AccessKeySnapshot key = new AccessKeySnapshot(
                "k1",
                1,
                "team",
                "hash",
                "rk-k1",
                true,
                null,
                List.of(),
                List.of(),
                List.of("g1"),
                Instant.parse("2026-12-05T00:00:00Z"));
        String prompt = "You are a careful reviewer. " + "x".repeat(200_000);
        JsonNode body = Json.MAPPER.readTree("{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"system\","
                + "\"content\":\"" + prompt + "\"},{\"role\":\"user\",\"content\":\"hi\"}]}");
        BridgePlan bridges = BridgePlan.of(Protocol.OPENAI_CHAT, body, null, true, "m", false);
        RouteRequest route = RouteRequest.of(key, Protocol.OPENAI_CHAT, "m", body, bridges);
        List<Map.Entry<String, String>> headers = List.of(Map.entry("x-request-tag", "a"));
        ProxyRequest request = new ProxyRequest(
                UUID.randomUUID(),
                Protocol.OPENAI_CHAT,
                key,
                body,
                "m",
                true,
                false,
                headers,
                route,
                bridges,
                prompt.length() + 90L,
                12345L,
                Operation.GENERATE);

        ProxyRequest committed = request.committed();

        // the prompt goes: the parsed body, the bridge plan holding it, the rule holding the plan
        assertThat(committed.body()).isNull();
        assertThat(committed.bridges()).isNull();
        assertThat(committed.route().protocolRule()).isSameAs(ProtocolRule.NATIVE);
        // the usage record and the affinity still have all they read
        assertThat(committed.route().affinityKey()).isNotNull().isEqualTo(route.affinityKey());
        assertThat(committed.route().accessKey()).isSameAs(key);
        assertThat(committed.route().requestedModel()).isEqualTo("m");
        assertThat(committed)
                .usingRecursiveComparison()
                .ignoringFields("body", "bridges", "route")
                .isEqualTo(request);
    }
}
