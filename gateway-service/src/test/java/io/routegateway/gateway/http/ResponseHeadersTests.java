package io.routegateway.gateway.http;

import java.net.http.HttpResponse;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every answer of the gateway carries {@code X-Content-Type-Options: nosniff}: an upstream's error
 * page passed through (text/html, perhaps with a script) is never run by a browser as a page of the
 * gateway's origin; answers, refusals and listings alike.
 */
@QuarkusTest
class ResponseHeadersTests extends GatewayTestBase {

    @Test
    void everyAnswerCarriesNosniffAnUpstreamsHtmlErrorPageIncluded() {
        String served = Pool.uid("c");
        String htmlPage = Pool.uid("c");
        String group = Pool.uid("g");
        String htmlGroup = Pool.uid("g");
        upstream.on(served, ok());
        upstream.on(
                htmlPage,
                (request, body, number) -> request.response()
                        .setStatusCode(400)
                        .putHeader("content-type", "text/html")
                        .end("<html><script>alert(document.cookie)</script></html>"));
        String keyId = Pool.uid("k");
        String htmlKeyId = Pool.uid("k");
        install(
                List.of(
                        Pool.credential(served).serves("m").groups(group).build(box),
                        Pool.credential(htmlPage).serves("m").groups(htmlGroup).build(box)),
                List.of(Pool.group(group, false), Pool.group(htmlGroup, false)),
                Pool.key(keyId, List.of(group), List.of(), List.of(), true, null, 1));
        install(List.of(), List.of(), Pool.key(htmlKeyId, List.of(htmlGroup), List.of(), List.of(), true, null, 1));

        HttpResponse<String> answered = post("/v1/chat/completions", keyId, chat("m"));
        HttpResponse<String> html = post("/v1/chat/completions", htmlKeyId, chat("m"));
        HttpResponse<String> refused = post("/v1/chat/completions", null, chat("m"));
        HttpResponse<String> listed = get("/v1/models", keyId);

        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(html.statusCode()).isGreaterThanOrEqualTo(400);
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(listed.statusCode()).isEqualTo(200);
        for (HttpResponse<String> response : List.of(answered, html, refused, listed)) {
            assertThat(response.headers().allValues("x-content-type-options"))
                    .as("%s %s", response.request().uri(), response.statusCode())
                    .contains("nosniff");
        }
    }
}
