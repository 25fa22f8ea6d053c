package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.AttemptStep;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/** The usage record of a request carries its attempts: retried, failed over, served; upstream text masked and cut. */
@QuarkusTest
class AttemptChainRecordTests extends GatewayTestBase {

    @Test
    void aRetriedThenFailedOverRequestRecordsEachAttemptWithItsDecision() {
        String a = Pool.uid("a");
        String b = Pool.uid("b");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        // the failing upstream quotes the key it was sent, with markup, a NUL and a megabyte of text
        String hostile = "{\"error\":{\"message\":\"<b>bad key " + Pool.secretOf(a) + "</b>\\u0000 "
                + "x".repeat(1_000_000) + "\"}}";
        upstream.on(a, json(503, hostile));
        upstream.on(b, ok());
        install(
                List.of(
                        Pool.credential(a)
                                .serves("m")
                                .groups(group)
                                .priority(0)
                                .policy(1, 0, true, 10)
                                .build(box),
                        Pool.credential(b).serves("m").groups(group).priority(1).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));
        assertThat(response.statusCode()).isEqualTo(200);

        RequestCompleted record = usage(b, list -> !list.isEmpty()).get(0);
        assertThat(record.attempts()).isEqualTo(3);
        List<AttemptStep> chain = record.attemptChain();
        assertThat(chain).extracting(AttemptStep::decision).containsExactly("retry_same", "fail_over", "success");
        assertThat(chain).extracting(AttemptStep::credentialId).containsExactly(a, a, b);
        assertThat(chain).extracting(AttemptStep::status).containsExactly(503, 503, 200);
        AttemptStep failed = chain.get(1);
        assertThat(failed.failureKind()).isEqualTo("upstream_status");
        assertThat(failed.failureScope()).isEqualTo("model");
        assertThat(failed.modelKey()).isEqualTo("m");
        assertThat(failed.error())
                .contains("<b>bad key ")
                .doesNotContain(Pool.secretOf(a))
                .doesNotContain("\u0000")
                .hasSizeLessThanOrEqualTo(AttemptStep.MAX_ERROR_CHARS + 1);
        assertThat(chain.get(2).failureKind()).isNull();
        assertThat(chain.get(2).error()).isNull();
    }

    @Test
    void aRequestThatRunsOutOfCredentialsEndsOnGiveUp() {
        String a = Pool.uid("a");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(a, json(401, "{\"error\":{\"message\":\"invalid key\"}}"));
        install(
                List.of(Pool.credential(a).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));
        assertThat(response.statusCode()).isGreaterThanOrEqualTo(400);

        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.attemptChain()).hasSize(1);
        AttemptStep only = record.attemptChain().get(0);
        assertThat(only.decision()).isEqualTo("give_up");
        assertThat(only.status()).isEqualTo(401);
        assertThat(only.failureScope()).as("a 401 parks the account").isEqualTo("account");
        assertThat(only.error()).contains("invalid key");
    }
}
