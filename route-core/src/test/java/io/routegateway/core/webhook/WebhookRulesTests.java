package io.routegateway.core.webhook;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.state.HealthChange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WebhookRulesTests {

    static final Instant AT = Instant.parse("2026-12-06T05:00:00Z");
    static final UUID EVENT = UUID.fromString("00000000-0000-0000-0000-000000000001");

    static HealthChange change(String model, String from, String to) {
        return new HealthChange(model, from, to, "transient-failure-recorded.v1/upstream_status", null, "secret text");
    }

    @Test
    void revokedErrorAndAccountCoolingNotifyEverythingElseDoesNot() {
        List<Notification> out = NotificationRules.forChanges(
                "cred-1",
                EVENT,
                AT,
                List.of(
                        change(null, "ok", "revoked"),
                        change("gpt-4o", "failing", "error"),
                        change(null, "failing", "cooling"),
                        change("gpt-4o-mini", "ok", "cooling"),
                        change(null, "cooling", "ok"),
                        change(null, "ok", "paused"),
                        change(null, "cooling", "cooling")));
        assertThat(out)
                .extracting(Notification::type)
                .containsExactly("credential.revoked", "credential.error", "credential.escalated");
        assertThat(out.get(1).modelKey()).isEqualTo("gpt-4o");
        assertThat(out).allSatisfy(n -> assertThat(n.credentialId()).isEqualTo("cred-1"));
    }

    @Test
    void theSameChangeAlwaysHasTheSameNotificationId() {
        List<HealthChange> changes = List.of(change(null, "ok", "revoked"));
        assertThat(NotificationRules.forChanges("cred-1", EVENT, AT, changes)
                        .get(0)
                        .id())
                .isEqualTo(NotificationRules.forChanges("cred-1", EVENT, AT, changes)
                        .get(0)
                        .id())
                .isNotEqualTo(NotificationRules.forChanges("cred-1", UUID.randomUUID(), AT, changes)
                        .get(0)
                        .id());
    }

    @Test
    void thePayloadHasTheStableV1FieldsAndNoMessageText() throws Exception {
        Notification n = NotificationRules.forChanges("cred-1", EVENT, AT, List.of(change(null, "ok", "revoked")))
                .get(0);
        JsonNode json = Json.MAPPER.readTree(WebhookBody.render(n, WebhookBody.JSON));
        assertThat(json.get("schema").asText()).isEqualTo("route.webhook.v1");
        assertThat(json.get("type").asText()).isEqualTo("credential.revoked");
        assertThat(json.get("occurred_at").asText()).isEqualTo("2026-12-06T05:00:00Z");
        assertThat(json.has("team_id")).isTrue();
        assertThat(json.get("team_id").isNull()).isTrue();
        assertThat(iterable(json))
                .containsExactly(
                        "schema",
                        "id",
                        "type",
                        "occurred_at",
                        "credential_id",
                        "model_key",
                        "from",
                        "to",
                        "cause",
                        "until",
                        "team_id",
                        "threshold_percent",
                        "spend_micros",
                        "budget_micros",
                        "window_start");
        assertThat(json.toString()).doesNotContain("secret text");
        JsonNode slack = Json.MAPPER.readTree(WebhookBody.render(n, WebhookBody.SLACK));
        assertThat(slack.get("text").asText()).contains("credential.revoked").contains("cred-1");
    }

    @Test
    void aSlackMessageCarriesAModelKeysMarkupAsTextNeverAsAMentionOrLink() throws Exception {
        Notification n = Notification.credential(
                UUID.randomUUID(),
                WebhookEventType.CREDENTIAL_ERROR,
                Instant.parse("2026-12-01T00:00:00Z"),
                "cred-1",
                "<!channel> <https://evil.example|click> & co",
                "ok",
                "error",
                "upstream_status",
                null);
        String text = Json.MAPPER
                .readTree(WebhookBody.render(n, WebhookBody.SLACK))
                .get("text")
                .asText();
        assertThat(text)
                .contains("&lt;!channel&gt; &lt;https://evil.example|click&gt; &amp; co")
                .doesNotContain("<")
                .doesNotContain(">");
    }

    private static List<String> iterable(JsonNode json) {
        List<String> names = new java.util.ArrayList<>();
        json.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void budgetThresholdsNotifyOnceWhenCrossed() {
        assertThat(NotificationRules.budgetCrossed("team-a", 70, 85, 100L, AT, AT))
                .extracting(Notification::thresholdPercent)
                .containsExactly(80);
        assertThat(NotificationRules.budgetCrossed("team-a", 70, 100, 100L, AT, AT))
                .extracting(Notification::thresholdPercent)
                .containsExactly(80, 100);
        assertThat(NotificationRules.budgetCrossed("team-a", 85, 90, 100L, AT, AT))
                .isEmpty();
        assertThat(NotificationRules.budgetCrossed("team-a", 0, 1_000, null, AT, AT))
                .isEmpty();
        assertThat(NotificationRules.budgetCrossed("team-a", 0, 1_000, 0L, AT, AT))
                .isEmpty();
    }

    @Test
    void onlyTheFirstFailedRefreshOfAStreakNotifies() {
        assertThat(NotificationRules.oauthRefreshFailing("cred-1", 1, "upstream_status", AT)
                        .type())
                .isEqualTo("oauth.refresh_failing");
        assertThat(NotificationRules.oauthRefreshFailing("cred-1", 2, "upstream_status", AT))
                .isNull();
    }

    @Test
    void theSignatureIsHmacSha256OfTimestampDotBody() {
        byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        // openssl: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec-test
        String signature = WebhookSignature.sign("whsec-test", 1_700_000_000L, body);
        assertThat(signature).matches("sha256=[0-9a-f]{64}");
        assertThat(WebhookSignature.verify("whsec-test", 1_700_000_000L, body, signature))
                .isTrue();
        assertThat(WebhookSignature.verify("whsec-other", 1_700_000_000L, body, signature))
                .isFalse();
        assertThat(WebhookSignature.verify("whsec-test", 1_700_000_001L, body, signature))
                .isFalse();
        assertThat(WebhookSignature.verify("whsec-test", 1_700_000_000L, "{\"a\":2}".getBytes(), signature))
                .isFalse();
    }

    @Test
    void retriesBackOffExponentiallyUpToTheCapAndGiveUp() {
        DeliveryBackoff backoff = new DeliveryBackoff(Duration.ofSeconds(10), Duration.ofMinutes(5), 5);
        Clock clock = Clock.fixed(AT, ZoneOffset.UTC);
        assertThat(backoff.nextAttempt(clock, 1)).isEqualTo(AT.plusSeconds(10));
        assertThat(backoff.nextAttempt(clock, 2)).isEqualTo(AT.plusSeconds(20));
        assertThat(backoff.nextAttempt(clock, 3)).isEqualTo(AT.plusSeconds(40));
        assertThat(backoff.delay(20)).isEqualTo(Duration.ofMinutes(5));
        assertThat(backoff.nextAttempt(clock, 5)).isNull();
        assertThatThrownBy(() -> new DeliveryBackoff(Duration.ZERO, Duration.ofSeconds(1), 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void internalTargetsAreRefusedUnlessAllowListed() throws Exception {
        TargetPolicy strict = TargetPolicy.strict();
        assertThat(strict.refusal("https://hooks.example.com/x")).isNull();
        for (String url : List.of(
                "http://127.0.0.1/x",
                "http://localhost:8080/x",
                "http://api.localhost/x",
                "http://169.254.169.254/latest/meta-data",
                "http://metadata.google.internal/computeMetadata",
                "http://10.1.2.3/",
                "http://172.16.0.1/",
                "http://192.168.1.1/",
                "http://100.64.0.1/",
                "http://0.0.0.0/",
                "http://[::1]/",
                "http://[fe80::1]/",
                "http://[fd00:ec2::254]/",
                "http://[::ffff:127.0.0.1]/",
                "http://2130706433/",
                "http://0x7f.1/",
                "http://127.1/")) {
            assertThat(strict.refusal(url)).as(url).isNotNull();
        }
        for (String url : List.of(
                "ftp://hooks.example.com/",
                "https://user:pw@hooks.example.com/",
                "https://hooks.example.com/#x",
                "/relative",
                "https://hooks.example.com/\u0000",
                "https://hooks.example.com/\nHost: evil",
                "https://hooks.example.com/" + "a".repeat(TargetPolicy.MAX_URL))) {
            assertThat(strict.refusal(url)).as(url).isNotNull();
        }
        assertThat(strict.refusalOfAddress("hooks.example.com", InetAddress.getByName("10.0.0.5")))
                .isNotNull();
        assertThat(strict.refusalOfAddress("hooks.example.com", InetAddress.getByName("93.184.216.34")))
                .isNull();

        TargetPolicy allowing = TargetPolicy.allowing(List.of("127.0.0.1", "10.20.0.0/16", "hooks.internal"));
        assertThat(allowing.refusal("http://127.0.0.1:9000/x")).isNull();
        assertThat(allowing.refusal("http://10.20.3.4/x")).isNull();
        assertThat(allowing.refusal("http://10.21.3.4/x")).isNotNull();
        assertThat(allowing.refusalOfAddress("hooks.internal", InetAddress.getByName("10.9.9.9")))
                .isNull();
        assertThat(allowing.refusal("http://169.254.169.254/")).isNotNull();
        assertThatThrownBy(() -> TargetPolicy.allowing(List.of("10.0.0.0/99")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
