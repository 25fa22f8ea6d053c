package io.routegateway.e2e;

import java.time.Duration;
import java.util.Map;

import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.demo.DemoUpstream;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Streaming passthrough (OpenAI chat to an OpenAI-compatible api account: no bridge, a stream was
 * asked for, 2xx, no custom tools, not official): failover still works before the first chunk;
 * after it a truncation is recorded, not retried, and the next selection avoids the account.
 */
class StreamingIT extends EndToEndTest {

    private static final String SOL = "gpt-5.6-sol";
    private static final String UPSTREAM_SOL = "upstream-sol";

    @Test
    void aStreamCutBeforeTheFirstChunkFailsOverAndTheClientGetsAWholeAnswer() {
        EventLedger ledger = EventLedger.start(system);
        Pool pool = Pool.create(system);
        String cut = pool.credential("cut", c -> c.priority(0).retries(0).map(SOL, UPSTREAM_SOL));
        String whole = pool.credential("whole", c -> c.priority(1).map(SOL, UPSTREAM_SOL));
        String key = pool.accessKey(pool.group("main", cut, whole));
        pool.awaitVisible(key);
        DemoUpstream demo = system.demo();
        demo.setBehaviour(cut, new Behaviour(Mode.STREAM_CUT, 200, null, 0, 0));

        Http.Response response = system.gateway().chatStream(key, SOL);

        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertThat(response.body()).contains("data: [DONE]").contains("\"finish_reason\":\"stop\"");
        assertThat(response.servedBy()).isEqualTo(whole);
        assertThat(demo.requestCount(cut, UPSTREAM_SOL)).isEqualTo(1);
        await("the cut recorded as a failure of the first account")
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(integer(system.database().credential(cut), "transient_failure_count"))
                        .isEqualTo(1));
        demo.reset(cut);

        EventLedger.Counts counts = ledger.settle(pool.credentials(), false);
        EventLedger.summary("StreamingIT.beforeFirstChunk", "requests=1", "client_errors=0", counts);
        assertThat(counts.missing()).isEmpty();
    }

    @Test
    void aStreamCutAfterTheFirstChunkIsRecordedNotRetriedAndTheNextSelectionAvoidsIt() {
        EventLedger ledger = EventLedger.start(system);
        Pool pool = Pool.create(system);
        String cut = pool.credential("cut", c -> c.priority(0).map(SOL, UPSTREAM_SOL));
        String whole = pool.credential("whole", c -> c.priority(1).map(SOL, UPSTREAM_SOL));
        String key = pool.accessKey(pool.group("main", cut, whole));
        pool.awaitVisible(key);
        DemoUpstream demo = system.demo();
        demo.setBehaviour(cut, new Behaviour(Mode.STREAM_CUT, 200, null, 0, 2));
        GatewayClient client = system.gateway();

        Http.Response truncated = client.chatStream(key, SOL);

        // the client already had bytes: it keeps what it got, nothing is replayed elsewhere
        assertThat(truncated.status()).isEqualTo(200);
        assertThat(truncated.body()).contains("data: {").doesNotContain("[DONE]");
        assertThat(truncated.body()).doesNotContain("\"finish_reason\":\"stop\"");
        assertThat(demo.requestCount(cut, UPSTREAM_SOL)).as("not retried").isEqualTo(1);
        assertThat(demo.requestCount(whole, UPSTREAM_SOL)).as("not failed over").isZero();
        await("truncation recorded on the model").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Map<String, Object> row = modelRow(cut, UPSTREAM_SOL);
            assertThat(row.get("last_failure_kind")).isEqualTo("semantic_response_transient");
            assertThat(row.get("cooldown_until")).isNotNull();
        });

        Http.Response next = client.chatStream(key, SOL);
        assertThat(next.status()).isEqualTo(200);
        assertThat(next.body()).contains("data: [DONE]");
        assertThat(next.servedBy())
                .as("the next selection avoids the truncating account")
                .isEqualTo(whole);
        assertThat(demo.requestCount(cut, UPSTREAM_SOL)).isEqualTo(1);
        demo.reset(cut);

        EventLedger.Counts counts = ledger.settle(pool.credentials(), false);
        EventLedger.summary("StreamingIT.afterFirstChunk", "requests=2", "truncated_streams=1", counts);
        assertThat(counts.missing()).isEmpty();
    }
}
