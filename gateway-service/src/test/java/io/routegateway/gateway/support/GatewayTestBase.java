package io.routegateway.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.http.TestHTTPResource;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.event.UsageBatch;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Platform;
import io.routegateway.gateway.view.PoolViewHolder;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import static org.awaitility.Awaitility.await;

/**
 * What the gateway tests share: the running gateway (real Kafka), the mock upstream, publication
 * of snapshots to the real state topics, and reading of the real outcome and usage topics.
 */
public abstract class GatewayTestBase {

    protected static final Duration KAFKA_WAIT = Duration.ofSeconds(60);

    /** One client per broker: a test profile may run the gateway against its own broker. */
    private static final java.util.Map<String, StateTopics> TOPICS = new java.util.concurrent.ConcurrentHashMap<>();

    @Inject
    protected SecretBox box;

    @Inject
    protected PoolViewHolder views;

    @Inject
    protected TestClock clock;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    protected String bootstrap;

    @TestHTTPResource("/")
    protected URL gateway;

    protected final MockUpstream upstream = MockUpstream.get();
    protected final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    protected StateTopics topics() {
        return TOPICS.computeIfAbsent(bootstrap, StateTopics::new);
    }

    /** Publishes the snapshots and waits until the gateway's view holds all of them. */
    protected void install(List<CredentialSnapshot> credentials, List<GroupSnapshot> groups, AccessKeySnapshot key) {
        for (GroupSnapshot group : groups) {
            topics().publish(group);
        }
        for (CredentialSnapshot credential : credentials) {
            topics().publish(credential);
        }
        if (key != null) {
            topics().publish(key);
        }
        await().atMost(KAFKA_WAIT).until(() -> {
            boolean all = key == null
                    || views.pool()
                            .accessKey(key.accessKeyId())
                            .map(k -> k.version() == key.version())
                            .orElse(false);
            for (GroupSnapshot group : groups) {
                all &= views.pool()
                        .group(group.groupId())
                        .map(g -> g.version() == group.version())
                        .orElse(false);
            }
            for (CredentialSnapshot credential : credentials) {
                all &= views.pool()
                        .credential(credential.credentialId())
                        .map(c -> c.version() == credential.version())
                        .orElse(false);
            }
            return all;
        });
    }

    /**
     * A pool of one credential of {@code platform} that maps {@code model} to {@code upstreamModel},
     * alone in a fresh group, and a fresh key on that group; returns the key's id.
     */
    protected String onePlatformPool(String credential, Platform platform, String model, String upstreamModel) {
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        install(
                List.of(Pool.credential(credential)
                        .platform(platform)
                        .maps(model, upstreamModel)
                        .groups(group)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        return keyId;
    }

    protected HttpResponse<String> post(String path, String keyId, String json) {
        return send(request(path, keyId)
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    protected HttpResponse<String> get(String path, String keyId) {
        return send(request(path, keyId).GET().build());
    }

    protected HttpRequest.Builder request(String path, String keyId) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json");
        if (keyId != null) {
            builder.header("authorization", "Bearer " + Pool.plaintext(keyId));
        }
        return builder;
    }

    protected URI uri(String path) {
        try {
            return gateway.toURI().resolve(path.startsWith("/") ? path.substring(1) : path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    protected HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    protected static String chat(String model) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    }

    protected static JsonNode parse(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The outcome events published for a credential, waiting until {@code done} holds. */
    protected List<CredentialEvent> outcomes(String credentialId, Predicate<List<CredentialEvent>> done) {
        List<CredentialEvent> events = new ArrayList<>();
        topics().read(
                        Topics.OUTCOMES,
                        credentialId::equals,
                        values -> {
                            events.clear();
                            for (String value : values) {
                                events.add(readValue(value, CredentialEvent.class));
                            }
                            return done.test(events);
                        },
                        KAFKA_WAIT);
        return events;
    }

    /**
     * The usage records of a credential (the last one tried), or of an access key when none was
     * selected, waiting until {@code done} holds. Messages carry batches ({@link UsageBatch}), so the
     * records are picked from every message by their own fields.
     */
    protected List<RequestCompleted> usage(String key, Predicate<List<RequestCompleted>> done) {
        List<RequestCompleted> records = new ArrayList<>();
        topics().read(
                        Topics.USAGE,
                        anyKey -> true,
                        values -> {
                            records.clear();
                            for (String value : values) {
                                for (UsageBatch.Entry entry : UsageBatch.decode(value)) {
                                    RequestCompleted record = entry.record();
                                    if (record == null) {
                                        // another test's poison on the shared topic
                                        continue;
                                    }
                                    String recordKey = record.credentialId() != null
                                            ? record.credentialId()
                                            : record.accessKeyId();
                                    if (key.equals(recordKey)) {
                                        records.add(record);
                                    }
                                }
                            }
                            return done.test(records);
                        },
                        KAFKA_WAIT);
        return records;
    }

    private static <T> T readValue(String value, Class<T> type) {
        try {
            return Json.MAPPER.readValue(value, type);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An answer read off a raw socket: status, head, the envelope's error, whether the connection closed. */
    protected record RawAnswer(int status, String head, JsonNode error, boolean closed) {}

    /** Sends {@code head} and {@code body} and reads the answer; the upload is left unfinished. */
    protected RawAnswer raw(String head, byte[] body) throws IOException {
        try (Socket socket = new Socket(gateway.getHost(), gateway.getPort())) {
            // a guard against a hung test, not an expectation about time
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            int n;
            // the gateway closes the connection after the answer: read to the end of the stream
            while ((n = in.read(chunk)) >= 0) {
                read.write(chunk, 0, n);
            }
            String text = read.toString(StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            String answerHead = text.substring(0, split);
            String answerBody = text.substring(split + 4);
            int status = Integer.parseInt(answerHead.substring(9, 12));
            return new RawAnswer(status, answerHead, parse(answerBody).get("error"), true);
        }
    }
}
