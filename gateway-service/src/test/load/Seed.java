import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.state.AccountState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringSerializer;

/** Seeds one group, one credential pointing at the mock upstream and one key: java Seed.java bootstrap base-url key. */
public class Seed {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String baseUrl = args[1];
        String plaintext = args[2];
        SecretBox box = SecretBox.fromBase64Key(System.getenv("ROUTE_SECRET_ENCRYPTION_KEY"), new SecureRandom());
        StateSigner signer = StateSigner.fromBase64Pkcs8("k1", System.getenv("ROUTE_STATE_SIGNING_PRIVATE_KEY"));
        long version = System.currentTimeMillis();
        Instant now = Instant.now();
        CredentialSnapshot credential = new CredentialSnapshot("load-c", version, "load", Platform.OPENAI, CredentialKind.API,
                baseUrl, box.seal(new SecretBox.Binding("load-c", Platform.OPENAI.wire(), baseUrl), "sk-load"), List.of(new ModelMapping("m", "m")), FailurePolicy.DEFAULTS, true,
                false, true, 0, WeightMode.AUTO, 50, null, List.of("load-g"), AccountState.HEALTHY, List.of(), now,
                null, null, null);
        GroupSnapshot group = new GroupSnapshot("load-g", version, "load", true, WeightMode.AUTO, 0, List.of(), false, now);
        AccessKeySnapshot key = new AccessKeySnapshot("load-k", version, "load", AccessKeys.hash(plaintext), "rk-", true, null,
                List.of(), List.of(), List.of("load-g"), now);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", bootstrap), new StringSerializer(), new StringSerializer())) {
            producer.send(signed(signer, Topics.GROUPS, "load-g", Json.MAPPER.writeValueAsString(group))).get();
            producer.send(signed(signer, Topics.CREDENTIAL_STATE, "load-c", Json.MAPPER.writeValueAsString(credential))).get();
            producer.send(signed(signer, Topics.ACCESS_KEYS, "load-k", Json.MAPPER.writeValueAsString(key))).get();
        }
    }

    /** Signed as state-service signs, so the gateway applies it. */
    static ProducerRecord<String, String> signed(StateSigner signer, String topic, String key, String value) {
        return new ProducerRecord<>(topic, null, key, value, List.<Header>of(
                new RecordHeader(StateSignature.KEY_ID_HEADER, signer.keyId().getBytes(StandardCharsets.UTF_8)),
                new RecordHeader(StateSignature.SIGNATURE_HEADER, signer.sign(topic, key, value).getBytes(StandardCharsets.UTF_8))));
    }
}
