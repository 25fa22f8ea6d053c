package io.routegateway.gateway.forward;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Platform;
import io.routegateway.core.state.ModelState;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deliberate deviation for Gemini (docs/spec-coverage.md, "Deliberate deviations"): the spec
 * degrades requests whose model is in the URL path to account scope; the gateway reads the model
 * from the path, so a Gemini failure parks only that (account, model) pair and the account's other
 * models stay usable.
 */
@QuarkusTest
class GeminiModelScopeTests extends GatewayTestBase {

    static final String GEMINI_OK = "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\"}]},"
            + "\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":3,\"candidatesTokenCount\":1}}";

    private HttpResponse<String> generate(String model, String keyId) {
        return send(HttpRequest.newBuilder(uri("/v1beta/models/" + model + ":generateContent"))
                .header("x-goog-api-key", Pool.plaintext(keyId))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}"))
                .build());
    }

    @Test
    void aGeminiFailureIsChargedToTheModelFromThePathAndTheAccountsOtherModelStaysUsable() {
        String a = Pool.uid("a");
        String b = Pool.uid("b");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(a, (request, body, number) -> {
            boolean pro = request.path().contains("gemini-2.5-pro");
            request.response()
                    .setStatusCode(pro ? 429 : 200)
                    .putHeader("content-type", "application/json")
                    .end(pro ? "{\"error\":{\"code\":429,\"message\":\"pro is throttled\"}}" : GEMINI_OK);
        });
        upstream.on(
                b,
                (request, body, number) -> request.response()
                        .putHeader("content-type", "application/json")
                        .end(GEMINI_OK));
        install(
                List.of(
                        Pool.credential(a)
                                .platform(Platform.GEMINI)
                                .maps("pro", "gemini-2.5-pro")
                                .maps("flash", "gemini-2.5-flash")
                                .policy(0, 10, true, 60)
                                .groups(group)
                                .priority(0)
                                .build(box),
                        Pool.credential(b)
                                .platform(Platform.GEMINI)
                                .serves("pro", "flash")
                                .groups(group)
                                .priority(1)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        assertThat(generate("pro", keyId).statusCode()).isEqualTo(200);

        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.modelKey())
                            .as("the model from the Gemini path, not account scope")
                            .isEqualTo("gemini-2.5-pro");
                    assertThat(failure.status()).isEqualTo(429);
                });
        CredentialSnapshot seen = views.pool().credential(a).orElseThrow();
        assertThat(seen.account().cooldownUntil()).as("no account cooldown").isNull();
        assertThat(seen.models()).extracting(ModelState::modelKey).containsExactly("gemini-2.5-pro");

        int before = upstream.count(a);
        assertThat(generate("flash", keyId).statusCode()).isEqualTo(200);
        assertThat(upstream.count(a))
                .as("the account's other model is still served by it")
                .isEqualTo(before + 1);
        assertThat(generate("pro", keyId).statusCode()).isEqualTo(200);
        assertThat(upstream.count(a))
                .as("the parked pair is avoided while it cools")
                .isEqualTo(before + 1);
    }
}
