package io.routegateway.state.credential;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.hostpolicy.HostPolicy;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

/**
 * A credential's {@code base_url} may not point its secret at a metadata service, a link-local
 * address, the deployment's own ports or a public host over cleartext: refused on create and on
 * update, and a change of host needs the secret entered again.
 */
@QuarkusTest
class BaseUrlPolicyTests {

    private static final List<String> DENIED = List.of(
            "http://169.254.169.254/latest/meta-data",
            "http://2852039166/",
            "http://0xa9fea9fe/",
            "http://0251.0376.0251.0376/",
            "http://169.254.43518/",
            "http://[::ffff:169.254.169.254]/",
            "http://[fd00:ec2::254]/",
            "http://metadata.google.internal/computeMetadata/v1",
            "https://metadata.azure.com/",
            "http://127.0.0.1:8081/admin",
            "http://localhost:9081/q/metrics",
            "http://state-service:8082/",
            "http://api.openai.com/v1");

    @Test
    void aDeniedBaseUrlIsRefusedOnCreateWithItsReasonAndNeverEchoed() {
        for (String url : DENIED) {
            Map<String, Object> body = new HashMap<>(Map.of(
                    "name",
                    "hostile",
                    "platform",
                    "openai",
                    "kind",
                    "api",
                    "base_url",
                    url,
                    "secret",
                    "sk-hostile-000000"));
            error(admin().body(body).post("/admin/v1/credentials").then(), 400, HostPolicy.CODE)
                    .body("error.message", not(containsString(url)));
        }
    }

    @Test
    void aDeniedBaseUrlIsRefusedOnUpdateEvenWithTheSecretAndChangesNothing() {
        String id = createCredential(unique("cred-host"), "sk-host-secret-000000", Map.of());
        for (String url : DENIED) {
            error(
                    admin().body(Map.of("base_url", url, "secret", "sk-host-secret-000000"))
                            .patch("/admin/v1/credentials/" + id)
                            .then(),
                    400,
                    HostPolicy.CODE);
        }
        admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("base_url", equalTo("https://relay.example.test/v1"));
    }

    @Test
    void aNewHostNeedsTheSecretInTheSameRequest() {
        String id = createCredential(unique("cred-host"), "sk-host-secret-000000", Map.of());
        error(
                admin().body(Map.of("base_url", "https://attacker.example.test/v1"))
                        .patch("/admin/v1/credentials/" + id)
                        .then(),
                400,
                "validation.secret_required");
        // the same URL again is no change
        admin().body(Map.of("base_url", "https://relay.example.test/v1/"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200);
        admin().body(Map.of("base_url", "https://relay2.example.test/v1", "secret", "sk-host-secret-000000"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("base_url", equalTo("https://relay2.example.test/v1"));
    }
}
