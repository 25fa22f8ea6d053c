package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.util.List;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.common.upstream.UpstreamClient;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import io.routegateway.gateway.support.StubResolver;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connect time (DNS rebinding): a credential's host is resolved when the gateway connects, the
 * address judged by the host policy and only that address connected to. A name that resolves to a
 * link-local or metadata address is refused — nothing sent, the attempt failed over as a transport
 * failure of that credential — while a name that resolves to an allowed address is served with the
 * name as its {@code Host}. Credential {@code a} (priority 0) is the one whose name is mapped, {@code
 * b} (priority 1) answers when {@code a} is refused.
 */
@QuarkusTest
class UpstreamAddressPolicyTests extends GatewayTestBase {

    @Inject
    MeterRegistry registry;

    private String a;
    private String b;
    private String keyId;

    @BeforeEach
    void names() {
        a = Pool.uid("a");
        b = Pool.uid("b");
        keyId = Pool.uid("k");
    }

    /** {@code a}'s base URL on the mock upstream's port, under {@code host} instead of 127.0.0.1. */
    private String baseUrl(String host) {
        return upstream.baseUrl(a).replace("127.0.0.1", host);
    }

    private void pool(CredentialBuilder first) {
        String group = Pool.uid("g");
        upstream.on(a, ok());
        upstream.on(b, ok());
        install(
                List.of(
                        first.serves("m").groups(group).priority(0).build(box),
                        Pool.credential(b).serves("m").groups(group).priority(1).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private HttpResponse<String> call() {
        return post("/v1/chat/completions", keyId, chat("m"));
    }

    private double refused(String reason) {
        var counter = registry.find("gateway.upstream.addresses.refused")
                .tag("reason", reason)
                .counter();
        return counter == null ? -1 : counter.count();
    }

    @Test
    void aNameResolvingToTheMetadataAddressIsRefusedAtConnectTimeAndFailsOver() {
        String host = a + ".metadata-rebind.example.com";
        StubResolver.map(host, "169.254.169.254");
        double before = refused("link_local");
        pool(Pool.credential(a).baseUrl(baseUrl(host)).policy(1, 10, true, 10));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.count(b)).isEqualTo(1);
        List<CredentialEvent> events = outcomes(a, list -> !list.isEmpty());
        assertThat(events).hasSize(1).first().isInstanceOf(CredentialEvent.TransientFailureRecorded.class);
        CredentialEvent.TransientFailureRecorded failure = (CredentialEvent.TransientFailureRecorded) events.get(0);
        assertThat(failure.kind()).isEqualTo("transport");
        assertThat(failure.status()).isNull();
        assertThat(failure.message()).isEqualTo(UpstreamClient.ADDRESS_REFUSED + " (link_local)");
        assertThat(refused("link_local")).isEqualTo(before + 2); // the attempt and its one retry
        assertThat(response.body()).doesNotContain("169.254").doesNotContain(host);
    }

    @Test
    void theSameKindOfNameResolvingToAnAllowedAddressIsServedUnderItsName() {
        String host = a + ".served-rebind.example.com";
        StubResolver.map(host, "127.0.0.1");
        pool(Pool.credential(a).baseUrl(baseUrl(host)));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.hits(a)).hasSize(1);
        assertThat(upstream.hits(a).get(0).headers().get("host")).startsWith(host + ":");
        assertThat(upstream.count(b)).isZero();
    }

    @Test
    void aNameThatRebindsToTheMetadataAddressAfterBeingServedIsRefusedNextTime() {
        String host = a + ".rebinding.example.com";
        StubResolver.map(host, "127.0.0.1");
        pool(Pool.credential(a).baseUrl(baseUrl(host)).policy(0, 10, true, 10));
        assertThat(call().statusCode()).isEqualTo(200);
        assertThat(upstream.count(a)).isEqualTo(1);

        // the keep-alive connection to 127.0.0.1 is still pooled: the new address is judged anyway
        StubResolver.map(host, "::ffff:169.254.169.254");
        HttpResponse<String> second = call();

        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(upstream.count(a)).as("nothing more reached a's upstream").isEqualTo(1);
        assertThat(upstream.count(b)).isEqualTo(1);
        CredentialEvent.TransientFailureRecorded failure = (CredentialEvent.TransientFailureRecorded)
                outcomes(a, list -> list.stream().anyMatch(CredentialEvent.TransientFailureRecorded.class::isInstance))
                        .stream()
                        .filter(CredentialEvent.TransientFailureRecorded.class::isInstance)
                        .findFirst()
                        .orElseThrow();
        assertThat(failure.message()).isEqualTo(UpstreamClient.ADDRESS_REFUSED + " (link_local)");
    }
}
