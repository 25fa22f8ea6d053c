package io.routegateway.e2e;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.event.Topics;
import io.routegateway.e2e.support.AdminClient;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import io.routegateway.e2e.support.TopicRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hostile admin input against the running system: U+0000 in every field, path id and query filter,
 * 1 MB fields, wrong JSON types, huge arrays and echo/markup text. None is answered with a 5xx,
 * state-service stays ready throughout, and every write that is accepted (markup names, the largest
 * configuration) is served through the gateway. Also the poison records of issue 13: a usage record
 * and outcome events with U+0000 produced straight to Kafka never stop state-service, and the
 * request log keeps growing.
 */
class HostileAdminIT extends EndToEndTest {

    private static final String NUL = "\u0000";
    private static final String MEGABYTE = "x".repeat(1 << 20);
    private static final String MARKUP =
            "<script>alert(1)</script> ${jndi:ldap://x/a} {{7*7}} '; DROP TABLE route_credentials; --";

    /** One hostile call and what it answered. */
    private record Answer(String name, int status, String code) {}

    @Test
    void hostileAdminWritesAreRefusedWithoutA5xxAndEveryAcceptedWriteReachesTheGateway() {
        String suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000000, 0x7fffffff));
        int firstWrite = system.admin().writeMark();
        Instant started = Instant.now().minusSeconds(5);
        ReadinessWatch watch = ReadinessWatch.start();
        List<Answer> answers = new ArrayList<>();

        // accepted: markup and echo text where free text is allowed, a model name with markup
        String markupModel = "gpt-<b>echo</b>-" + suffix;
        String markupCredential = "hx-" + suffix;
        ObjectNode credential = credentialBody(markupCredential, MARKUP);
        credential
                .putArray("model_mappings")
                .addObject()
                .put("from", markupModel)
                .put("to", "upstream-<i>x</i>");
        answers.add(call("accepted: credential with markup name and model", "POST", "/credentials", credential));
        String markupKey = keyFor(markupCredential, "ghx-" + suffix, "khx-" + suffix, answers);

        // accepted: the largest configuration (200 mappings of 256 characters, a 200-character name, a 4 KB secret)
        String largest = "hm-" + suffix;
        ObjectNode maximal = credentialBody(largest, "名".repeat(200));
        String largestSecret = largest + "-" + "s".repeat(4096 - largest.length() - 1);
        maximal.put("secret", largestSecret);
        ArrayNode mappings = maximal.putArray("model_mappings");
        List<String> largeModels = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String model = String.format("m%03d-%s-", i, suffix) + "模".repeat(256 - 14);
            largeModels.add(model);
            mappings.addObject().put("from", model).put("to", model);
        }
        answers.add(call("accepted: the largest credential", "POST", "/credentials", maximal));
        String largestKey = keyFor(largest, "ghm-" + suffix, "khm-" + suffix, answers);

        answers.addAll(refusals(markupCredential));

        // every accepted write is in the gateway's view: requests are routed through the new credentials
        GatewayClient gateway = system.gateway();
        awaitServedBy(gateway, markupKey, markupModel, markupCredential);
        awaitServedBy(gateway, largestKey, largeModels.get(199), largestSecret);
        // the refused writes changed nothing: the markup credential still has its name and still serves
        assertThat(system.admin().credential(markupCredential).path("name").asText())
                .isEqualTo(MARKUP);
        awaitServedBy(gateway, markupKey, markupModel, markupCredential);
        watch.stop();

        List<Answer> serverErrors =
                answers.stream().filter(answer -> answer.status() >= 500).toList();
        List<Answer> refused = answers.stream()
                .filter(answer -> !answer.name().startsWith("accepted"))
                .toList();
        answers.forEach(
                answer -> System.out.println("HOSTILE " + answer.status() + " " + answer.code() + " " + answer.name()));
        System.out.printf(
                "E2E-SUMMARY HostileAdminIT: calls=%d refused=%d (all 400: %s) 5xx=%d readiness checks=%d not ready=%d%n",
                answers.size(),
                refused.size(),
                refused.stream().allMatch(answer -> answer.status() == 400),
                serverErrors.size(),
                watch.checks.get(),
                watch.notReady.get());
        assertThat(serverErrors).isEmpty();
        assertThat(refused).allSatisfy(answer -> {
            assertThat(answer.status()).as(answer.name()).isEqualTo(400);
            assertThat(answer.code()).as(answer.name()).startsWith("validation.");
        });
        assertThat(answers.stream().filter(answer -> answer.name().startsWith("accepted")))
                .allSatisfy(
                        answer -> assertThat(answer.status()).as(answer.name()).isEqualTo(201));
        assertThat(watch.notReady.get())
                .as("state-service readiness checks that were not UP")
                .isZero();
        assertThat(watch.checks.get()).isPositive();
        everyWriteHasExactlyOneAuditEntry(firstWrite, started);
    }

    /**
     * The audit log's acceptance: every admin write sent since {@code firstWrite} that was accepted
     * has exactly one entry (found by the request id the call carried) with the caller's subject and
     * the write's method; every refused write has none.
     */
    private static void everyWriteHasExactlyOneAuditEntry(int firstWrite, Instant started) {
        List<AdminClient.Write> writes = system.admin().writesSince(firstWrite).stream()
                .filter(AdminClient.Write::audited)
                .toList();
        var audit = system.admin().auditSince(started);
        long accepted = writes.stream().filter(AdminClient.Write::accepted).count();
        System.out.printf(
                "E2E-SUMMARY HostileAdminIT(audit): writes=%d accepted=%d refused=%d entries read=%d%n",
                writes.size(), accepted, writes.size() - accepted, audit.size());
        assertThat(accepted).isPositive();
        assertThat(writes.size() - accepted).isPositive();
        for (AdminClient.Write write : writes) {
            List<JsonNode> entries = audit.getOrDefault(write.requestId(), List.of());
            String what = write.method() + " "
                    + write.path().substring(0, Math.min(80, write.path().length())) + " -> " + write.status();
            if (write.accepted()) {
                assertThat(entries).as(what).hasSize(1);
                assertThat(entries.get(0).path("subject").asText()).as(what).isEqualTo(AdminClient.SUBJECT);
                assertThat(entries.get(0).path("method").asText()).as(what).isEqualTo(write.method());
            } else {
                assertThat(entries).as(what).isEmpty();
            }
        }
    }

    @Test
    void nulRecordsProducedToKafkaNeverStopStateServiceAndRequestLogsContinue() {
        String suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000000, 0x7fffffff));
        ReadinessWatch watch = ReadinessWatch.start();
        String credential = "hn-" + suffix;
        List<Answer> answers = new ArrayList<>();
        ObjectNode body = credentialBody(credential, "nul records " + suffix);
        body.putArray("model_mappings")
                .addObject()
                .put("from", "gpt-nul-" + suffix)
                .put("to", "upstream-sol");
        answers.add(call("accepted: credential", "POST", "/credentials", body));
        String keyId = "khn-" + suffix;
        String key = keyFor(credential, "ghn-" + suffix, keyId, answers);
        GatewayClient gateway = system.gateway();
        awaitServedBy(gateway, key, "gpt-nul-" + suffix, credential);

        // the gateway's own answer to a NUL model (refused at its front door, or routed nowhere)
        Http.Response nulModel = gateway.chat(key, "mock" + NUL + "model");
        System.out.println(
                "HOSTILE gateway chat model mock\\u0000model -> " + nulModel.status() + " " + nulModel.errorCode());

        String poisonKey = "poison-" + suffix;
        UUID sanitised = UUID.randomUUID();
        String usageWithNulModel = usage(sanitised, keyId, "mock\\u0000model", "m\\ud800");
        String usageWithNulKey = usage(UUID.randomUUID(), "k\\u0000" + suffix, "m", "m");
        String outcomeWithNulCredential = "{\"type\":\"model-paused.v1\",\"event_id\":\"" + UUID.randomUUID()
                + "\",\"credential_id\":\"" + credential + "\\u0000\",\"occurred_at\":\"" + Instant.now()
                + "\",\"model_key\":\"upstream-sol\"}";
        String outcomeWithNulModel = "{\"type\":\"model-paused.v1\",\"event_id\":\"" + UUID.randomUUID()
                + "\",\"credential_id\":\"" + credential + "\",\"occurred_at\":\"" + Instant.now()
                + "\",\"model_key\":\"upstream\\u0000sol\"}";
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(Topics.USAGE, poisonKey, usageWithNulModel));
            producer.send(new ProducerRecord<>(Topics.USAGE, poisonKey, usageWithNulKey));
            producer.send(new ProducerRecord<>(Topics.OUTCOMES, credential, outcomeWithNulCredential));
            producer.send(new ProducerRecord<>(Topics.OUTCOMES, credential, outcomeWithNulModel));
            producer.flush();
        }

        // normal traffic afterwards: its request logs arrive, next to the repaired record
        for (int i = 0; i < 3; i++) {
            assertThat(gateway.chat(key, "gpt-nul-" + suffix).status()).isEqualTo(200);
        }
        await("request logs continue")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    JsonNode page =
                            system.admin().expect(200, "GET", "/requests?access_key_id=" + keyId + "&limit=50", null);
                    List<String> models = new ArrayList<>();
                    page.path("items")
                            .forEach(item ->
                                    models.add(item.path("requested_model").asText()));
                    assertThat(models).contains("mock\uFFFDmodel");
                    assertThat(models.stream()
                                    .filter(("gpt-nul-" + suffix)::equals)
                                    .count())
                            .isGreaterThanOrEqualTo(4);
                });
        await("poison records dead-lettered")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    assertThat(readValues(Topics.USAGE_DEAD_LETTER, poisonKey)).containsExactly(usageWithNulKey);
                    assertThat(readValues(Topics.OUTCOMES_DEAD_LETTER, credential))
                            .contains(outcomeWithNulCredential, outcomeWithNulModel);
                });
        // the pause with a NUL model key was refused, so nothing is paused
        assertThat(system.database().models(credential)).isEmpty();
        watch.stop();
        System.out.printf(
                "E2E-SUMMARY HostileAdminIT(nul records): gateway NUL model -> %d %s; usage dlq=1 outcomes dlq=2 readiness checks=%d not ready=%d%n",
                nulModel.status(), nulModel.errorCode(), watch.checks.get(), watch.notReady.get());
        assertThat(watch.notReady.get()).isZero();
        assertThat(watch.checks.get()).isPositive();
    }

    /** The battery of refused writes; each must be a 400 with a validation code. */
    private static List<Answer> refusals(String existing) {
        List<Answer> answers = new ArrayList<>();
        // U+0000 in every body field
        for (String field : List.of("id", "name", "platform", "kind", "base_url", "secret", "weight_mode")) {
            ObjectNode body =
                    credentialBody("hr-" + UUID.randomUUID().toString().substring(0, 8), "n");
            body.put(field, body.path(field).asText("x") + NUL);
            answers.add(call("credential " + field + " with U+0000", "POST", "/credentials", body));
        }
        ObjectNode nulFrom = credentialBody("hr-from", "n");
        nulFrom.putArray("model_mappings").addObject().put("from", "m" + NUL).put("to", "u");
        answers.add(call("credential mapping from with U+0000", "POST", "/credentials", nulFrom));
        ObjectNode nulTo = credentialBody("hr-to", "n");
        nulTo.putArray("model_mappings").addObject().put("from", "m").put("to", "u" + NUL);
        answers.add(call("credential mapping to with U+0000", "POST", "/credentials", nulTo));
        ObjectNode nulGroup = credentialBody("hr-grp", "n");
        nulGroup.putArray("group_ids").add("g" + NUL);
        answers.add(call("credential group_ids with U+0000", "POST", "/credentials", nulGroup));
        ObjectNode nulZone = credentialBody("hr-zone", "n");
        nulZone.putObject("recovery")
                .put("mode", "scheduled")
                .put("time_zone", "UTC" + NUL)
                .putArray("times")
                .add("03:00");
        answers.add(call("credential recovery time_zone with U+0000", "POST", "/credentials", nulZone));
        answers.add(call(
                "credential PATCH name with U+0000", "PATCH", "/credentials/" + existing, object("name", "n" + NUL)));
        answers.add(call(
                "credential test model with U+0000",
                "POST",
                "/credentials/" + existing + "/test",
                object("model", "m" + NUL)));
        answers.add(call("group name with U+0000", "POST", "/groups", object("name", "g" + NUL)));
        ObjectNode groupModels = object("name", "g");
        groupModels.putArray("exposed_models").add("m" + NUL);
        answers.add(call("group exposed_models with U+0000", "POST", "/groups", groupModels));
        ObjectNode groupPool = object("name", "g");
        groupPool.putArray("credential_ids").add("c" + NUL);
        answers.add(call("group credential_ids with U+0000", "POST", "/groups", groupPool));
        answers.add(call("access key name with U+0000", "POST", "/access-keys", object("name", "k" + NUL)));
        ObjectNode keyModels = object("name", "k");
        keyModels.putArray("allowed_models").add("m" + NUL);
        answers.add(call("access key allowed_models with U+0000", "POST", "/access-keys", keyModels));
        ObjectNode keyProtocols = object("name", "k");
        keyProtocols.putArray("allowed_protocols").add("openai_chat" + NUL);
        answers.add(call("access key allowed_protocols with U+0000", "POST", "/access-keys", keyProtocols));
        ObjectNode prices = Http.JSON.createObjectNode();
        prices.putObject("model_prices")
                .putObject("m" + NUL)
                .put("input_per_million", 1)
                .put("output_per_million", 1);
        answers.add(call("settings model_prices name with U+0000", "PATCH", "/settings", prices));
        answers.add(call(
                "route check access_key_id with U+0000",
                "POST",
                "/route-check",
                object("access_key_id", "k" + NUL).put("protocol", "openai_chat")));
        // U+0000 in path ids and query filters
        for (String path : List.of(
                "/credentials/c%00x",
                "/credentials/c%00x/timeline",
                "/credentials/c%00x/models",
                "/groups/g%00x",
                "/access-keys/k%00x",
                "/requests?model=m%00x",
                "/requests?access_key_id=k%00x",
                "/usage?group_by=model%00",
                "/credentials?archived=%00")) {
            answers.add(call("GET " + path, "GET", path, null));
        }
        answers.add(
                call("POST pause of model m%00x", "POST", "/credentials/" + existing + "/models/m%00x/pause", null));
        answers.add(call("DELETE /groups/g%00x", "DELETE", "/groups/g%00x", null));
        answers.add(call("PATCH /access-keys/k%00x", "PATCH", "/access-keys/k%00x", object("name", "k")));
        // 1 MB fields
        for (String field : List.of("name", "secret", "base_url")) {
            ObjectNode body = credentialBody("hr-mb", "n");
            body.put(field, field.equals("base_url") ? "https://relay.example.test/" + MEGABYTE : MEGABYTE);
            answers.add(call("credential " + field + " of 1 MB", "POST", "/credentials", body));
        }
        ObjectNode hugeFrom = credentialBody("hr-mbf", "n");
        hugeFrom.putArray("model_mappings").addObject().put("from", MEGABYTE).put("to", "u");
        answers.add(call("credential mapping from of 1 MB", "POST", "/credentials", hugeFrom));
        ObjectNode hugeTo = credentialBody("hr-mbt", "n");
        hugeTo.putArray("model_mappings").addObject().put("from", "m").put("to", MEGABYTE);
        answers.add(call("credential mapping to of 1 MB", "POST", "/credentials", hugeTo));
        answers.add(call(
                "credential PATCH secret of 1 MB", "PATCH", "/credentials/" + existing, object("secret", MEGABYTE)));
        ObjectNode hugeModel = object("name", "k");
        hugeModel.putArray("allowed_models").add(MEGABYTE);
        answers.add(call("access key allowed_models entry of 1 MB", "POST", "/access-keys", hugeModel));
        ObjectNode hugePrice = Http.JSON.createObjectNode();
        hugePrice
                .putObject("model_prices")
                .putObject(MEGABYTE)
                .put("input_per_million", 1)
                .put("output_per_million", 1);
        answers.add(call("settings model_prices name of 1 MB", "PATCH", "/settings", hugePrice));
        answers.add(call("settings unknown setting named 1 MB", "PATCH", "/settings", object(MEGABYTE, "1")));
        // huge arrays
        ObjectNode manyMappings = credentialBody("hr-many", "n");
        ArrayNode many = manyMappings.putArray("model_mappings");
        for (int i = 0; i < 201; i++) {
            many.addObject().put("from", "m" + i).put("to", "u" + i);
        }
        answers.add(call("credential with 201 mappings", "POST", "/credentials", manyMappings));
        ObjectNode manyGroups = credentialBody("hr-groups", "n");
        ArrayNode groupIds = manyGroups.putArray("group_ids");
        for (int i = 0; i < 101; i++) {
            groupIds.add("g-" + i);
        }
        answers.add(call("credential with 101 group_ids", "POST", "/credentials", manyGroups));
        ObjectNode manyCredentials = object("name", "g");
        ArrayNode credentialIds = manyCredentials.putArray("credential_ids");
        for (int i = 0; i < 100_000; i++) {
            credentialIds.add("c-" + i);
        }
        answers.add(call("group with 100000 credential_ids", "POST", "/groups", manyCredentials));
        ObjectNode manyProtocols = object("name", "k");
        ArrayNode protocols = manyProtocols.putArray("allowed_protocols");
        Collections.nCopies(100_000, "openai_chat").forEach(protocols::add);
        answers.add(call("access key with 100000 protocols", "POST", "/access-keys", manyProtocols));
        // wrong JSON types and malformed bodies
        for (String json : List.of(
                "{\"name\":5}",
                "{\"name\":{\"a\":1}}",
                "{\"enabled\":\"true\"}",
                "{\"enabled\":1}",
                "{\"priority\":\"5\"}",
                "{\"priority\":1.5}",
                "{\"priority\":1e400}",
                "{\"weight\":true}",
                "{\"quota_remaining\":\"\"}",
                "{\"group_ids\":\"g\"}",
                "{\"model_mappings\":{\"from\":\"a\"}}",
                "{\"model_mappings\":[5]}",
                "{\"failure_policy\":\"off\"}",
                "{\"recovery\":5}",
                "[1,2,3]",
                "\"text\"",
                "{\"name\":",
                "")) {
            answers.add(call("credential PATCH " + json, "PATCH", "/credentials/" + existing, json));
        }
        answers.add(call("access key expires_at true", "POST", "/access-keys", "{\"name\":\"k\",\"expires_at\":true}"));
        answers.add(
                call("settings blacklist_threshold \"3\"", "PATCH", "/settings", "{\"blacklist_threshold\":\"3\"}"));
        answers.add(call(
                "settings price 1e400",
                "PATCH",
                "/settings",
                "{\"model_prices\":{\"m\":{\"input_per_million\":1e400,\"output_per_million\":1}}}"));
        // echo / markup text where only known values belong
        answers.add(call(
                "credential platform <script>",
                "POST",
                "/credentials",
                credentialBody("hr-echo", "n").put("platform", "<script>alert(1)</script>")));
        answers.add(call(
                "credential base_url javascript:",
                "POST",
                "/credentials",
                credentialBody("hr-js", "n").put("base_url", "javascript:alert(1)")));
        answers.add(call(
                "credential secret with a header line break",
                "POST",
                "/credentials",
                credentialBody("hr-crlf", "n").put("secret", "sk-x\r\nX-Injected: 1")));
        return answers;
    }

    private static Answer call(String name, String method, String path, Object body) {
        Http.Response response = system.admin().call(method, path, body);
        return new Answer(name, response.status(), response.errorCode());
    }

    /** A group holding the credential and a key scoped to it; returns the plaintext key. */
    private static String keyFor(String credential, String groupId, String keyId, List<Answer> answers) {
        ObjectNode group = Http.JSON.createObjectNode().put("id", groupId).put("name", MARKUP);
        group.putArray("credential_ids").add(credential);
        answers.add(call("accepted: group with markup name", "POST", "/groups", group));
        ObjectNode key = Http.JSON.createObjectNode().put("id", keyId).put("name", MARKUP);
        key.putArray("group_ids").add(groupId);
        Http.Response created = system.admin().call("POST", "/access-keys", key);
        answers.add(new Answer("accepted: access key with markup name", created.status(), created.errorCode()));
        return created.json().path("key").asText();
    }

    /** @param secret the credential's secret: the demo upstream names the account by its first characters */
    private static void awaitServedBy(GatewayClient gateway, String key, String model, String secret) {
        await("served by " + secret.substring(0, Math.min(16, secret.length())))
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    Http.Response response = gateway.chat(key, model);
                    assertThat(response.status()).as(response.body()).isEqualTo(200);
                    assertThat(response.servedBy()).isNotNull();
                    assertThat(secret).startsWith(response.servedBy());
                });
    }

    private static ObjectNode credentialBody(String id, String name) {
        return Pool.credentialBody(id, name, system.demoBaseUrl());
    }

    private static ObjectNode object(String field, String value) {
        return Http.JSON.createObjectNode().put(field, value);
    }

    /** A usage record as JSON text; the model arguments are inserted as they are (JSON escapes allowed). */
    private static String usage(UUID requestId, String accessKeyId, String requestedModel, String modelKey) {
        return "{\"type\":\"request-completed.v1\",\"request_id\":\"" + requestId + "\",\"occurred_at\":\""
                + Instant.now() + "\",\"protocol\":\"openai_chat\",\"access_key_id\":\"" + accessKeyId
                + "\",\"group_id\":null,\"credential_id\":null,\"requested_model\":\"" + requestedModel
                + "\",\"model_key\":\"" + modelKey + "\",\"attempts\":0,\"status\":400,\"reason_code\":null,"
                + "\"latency_ms\":1,\"ttft_ms\":null,\"input_tokens\":null,\"output_tokens\":null,\"stream\":false,"
                + "\"client_disconnected\":false,\"success\":false,\"probe\":false}";
    }

    /** Signed as a gateway signs: these records test what state-service screens once a signature passes. */
    private static KafkaProducer<String, String> producer() {
        return TopicRecords.gatewaySignedProducer(system.broker().bootstrapServers());
    }

    /** The values of one key on a topic, from its beginning (no consumer group). */
    private static List<String> readValues(String topic, String key) {
        return TopicRecords.values(system.broker().bootstrapServers(), topic, key);
    }

    /** Polls state-service's readiness every 250 ms until stopped, counting the checks that were not UP. */
    private static final class ReadinessWatch {

        final AtomicInteger checks = new AtomicInteger();
        final AtomicInteger notReady = new AtomicInteger();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        private ReadinessWatch() {
            thread = new Thread(
                    () -> {
                        while (running.get()) {
                            checks.incrementAndGet();
                            if (!system.state().ready()) {
                                notReady.incrementAndGet();
                                System.out.println("state-service not ready: "
                                        + system.state().readiness());
                            }
                            try {
                                Thread.sleep(250);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "readiness-watch");
            thread.setDaemon(true);
        }

        static ReadinessWatch start() {
            ReadinessWatch watch = new ReadinessWatch();
            watch.thread.start();
            return watch;
        }

        void stop() {
            running.set(false);
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
