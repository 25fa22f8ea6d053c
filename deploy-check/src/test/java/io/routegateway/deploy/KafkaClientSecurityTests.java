package io.routegateway.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Kafka client security per service: each service is its own Kafka principal (a SCRAM user or a client
 * certificate), its credentials come only from existing Secrets, and the schema refuses combinations that would
 * not authenticate or would share one principal. Also the snapshot signing keys wired from Secrets.
 */
class KafkaClientSecurityTests {

    private static final List<String> COMPONENTS = List.of("gateway", "state", "recovery");
    private static final Map<String, String> SERVICE = Map.of(
            "gateway", "gateway-service",
            "state", "state-service",
            "recovery", "recovery-service");

    /** Renders with {@code --set} values (merged like Helm merges them). */
    private static ManifestRules render(Map<String, Object> sets) {
        return new ManifestRules(StrictManifestReader.read(ChartRenderer.template(RepoPaths.chart(), List.of(), sets)));
    }

    private static void assertRejected(Map<String, Object> sets, String... fragments) {
        assertThatThrownBy(() -> ChartRenderer.template(RepoPaths.chart(), List.of(), sets))
                .hasMessageContaining("values don't meet the specifications of the schema")
                .hasMessageContainingAll(fragments);
    }

    @SafeVarargs
    private static Map<String, Object> values(Map<String, Object>... parts) {
        Map<String, Object> all = new LinkedHashMap<>();
        for (Map<String, Object> part : parts) {
            all.putAll(part);
        }
        return all;
    }

    private static Map<String, Object> protocol(String protocol) {
        return Map.of("kafka.securityProtocol", protocol);
    }

    /** A SCRAM Secret for each of the three services. */
    private static Map<String, Object> scramUsers() {
        Map<String, Object> sets = new LinkedHashMap<>();
        for (String component : COMPONENTS) {
            sets.put(component + ".kafka.scram.existingSecret", "route-" + component + "-kafka");
        }
        return sets;
    }

    private static Map<String, Object> mtls(String... components) {
        Map<String, Object> sets = new LinkedHashMap<>();
        for (String component : components) {
            sets.put(component + ".kafka.mtls.existingSecret", "route-" + component + "-kafka-tls");
        }
        return sets;
    }

    private static Deployment deployment(ManifestRules rules, String component) {
        return rules.all(Deployment.class).stream()
                .filter(d -> SERVICE.get(component)
                        .equals(d.getSpec()
                                .getTemplate()
                                .getMetadata()
                                .getLabels()
                                .get(ManifestRules.COMPONENT_LABEL)))
                .findFirst()
                .orElseThrow();
    }

    private static Container container(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static EnvVar env(Deployment deployment, String name) {
        return container(deployment).getEnv().stream()
                .filter(e -> e.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " is not set on " + ManifestRules.describe(deployment)));
    }

    private static List<String> envNames(Deployment deployment) {
        return container(deployment).getEnv().stream().map(EnvVar::getName).toList();
    }

    private static void assertSecretRef(EnvVar env, String secret, String key) {
        assertThat(env.getValue()).as(env.getName() + " literal value").isNull();
        assertThat(env.getValueFrom().getSecretKeyRef().getName()).isEqualTo(secret);
        assertThat(env.getValueFrom().getSecretKeyRef().getKey()).isEqualTo(key);
    }

    @Test
    void plaintextByDefaultSetsNoKafkaCredentials() {
        ManifestRules rules = Renders.rules(Renders.DEFAULTS);

        for (String component : COMPONENTS) {
            Deployment deployment = deployment(rules, component);
            assertThat(rules.environment(deployment))
                    .containsKey("KAFKA_BOOTSTRAP_SERVERS")
                    .doesNotContainKeys(
                            "KAFKA_SECURITY_PROTOCOL",
                            "KAFKA_SASL_JAAS_CONFIG",
                            "KAFKA_SASL_MECHANISM",
                            "KAFKA_SSL_KEYSTORE_LOCATION",
                            "KAFKA_SSL_KEYSTORE_PASSWORD");
            assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes())
                    .extracting(Volume::getName)
                    .containsExactly("tmp");
        }
    }

    @Test
    void scramGivesEachServiceItsOwnUserWithThePasswordOnlyFromItsSecret() {
        ManifestRules rules = render(values(
                protocol("SASL_SSL"),
                scramUsers(),
                Map.of("kafka.truststore.existingSecret", "route-kafka-ca", "state.kafka.scram.passwordKey", "pw")));

        assertThat(rules.all(Renders.services())).isEmpty();
        Map<String, String> users =
                Map.of("gateway", "route-gateway", "state", "route-state", "recovery", "route-recovery");
        for (String component : COMPONENTS) {
            Deployment deployment = deployment(rules, component);
            Map<String, String> environment = rules.environment(deployment);
            assertThat(environment)
                    .containsEntry("KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
                    .containsEntry("KAFKA_SASL_MECHANISM", "SCRAM-SHA-512")
                    .containsEntry("KAFKA_SSL_TRUSTSTORE_TYPE", "PEM")
                    .doesNotContainKeys("KAFKA_SSL_KEYSTORE_LOCATION", "KAFKA_SSL_KEYSTORE_PASSWORD");
            assertSecretRef(
                    env(deployment, "ROUTE_KAFKA_SCRAM_PASSWORD"),
                    "route-" + component + "-kafka",
                    component.equals("state") ? "pw" : "password");
            assertThat(env(deployment, "KAFKA_SASL_JAAS_CONFIG").getValue())
                    .isEqualTo("org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                            + users.get(component) + "\" password=\"$(ROUTE_KAFKA_SCRAM_PASSWORD)\";");
            // The kubelet expands $(NAME) only from variables defined earlier in the list.
            assertThat(envNames(deployment).indexOf("ROUTE_KAFKA_SCRAM_PASSWORD"))
                    .isLessThan(envNames(deployment).indexOf("KAFKA_SASL_JAAS_CONFIG"));
        }
    }

    @Test
    void scramCanTakeTheWholeJaasLineFromTheSecret() {
        ManifestRules rules = render(values(
                protocol("SASL_PLAINTEXT"),
                scramUsers(),
                Map.of(
                        "kafka.saslMechanism",
                        "SCRAM-SHA-256",
                        "gateway.kafka.scram.jaasConfigKey",
                        "sasl.jaas.config")));

        assertThat(rules.all(Renders.services())).isEmpty();
        Deployment gateway = deployment(rules, "gateway");
        assertSecretRef(env(gateway, "KAFKA_SASL_JAAS_CONFIG"), "route-gateway-kafka", "sasl.jaas.config");
        assertThat(envNames(gateway)).doesNotContain("ROUTE_KAFKA_SCRAM_PASSWORD");
        assertThat(rules.environment(gateway)).containsEntry("KAFKA_SASL_MECHANISM", "SCRAM-SHA-256");
        assertThat(env(deployment(rules, "state"), "KAFKA_SASL_JAAS_CONFIG").getValue())
                .contains("username=\"route-state\"");
    }

    @Test
    void mtlsMountsEachServicesOwnKeyStoreAndTakesItsPasswordFromTheSecret() {
        ManifestRules rules = render(values(
                protocol("SSL"),
                mtls("gateway", "state", "recovery"),
                Map.of(
                        "kafka.truststore.existingSecret", "route-kafka-ca",
                        "recovery.kafka.mtls.keystoreKey", "keystore.jks",
                        "recovery.kafka.mtls.keystoreType", "JKS",
                        "recovery.kafka.mtls.passwordKey", "storepass")));

        assertThat(rules.all(Renders.services())).isEmpty();
        for (String component : COMPONENTS) {
            Deployment deployment = deployment(rules, component);
            boolean jks = component.equals("recovery");
            String file = jks ? "keystore.jks" : "keystore.p12";
            assertThat(rules.environment(deployment))
                    .containsEntry("KAFKA_SECURITY_PROTOCOL", "SSL")
                    .containsEntry("KAFKA_SSL_KEYSTORE_TYPE", jks ? "JKS" : "PKCS12")
                    .containsEntry("KAFKA_SSL_KEYSTORE_LOCATION", "/etc/route-gateway/kafka-keystore/" + file)
                    .containsEntry("KAFKA_SSL_TRUSTSTORE_LOCATION", "/etc/route-gateway/kafka-truststore/ca.crt")
                    .doesNotContainKeys("KAFKA_SASL_JAAS_CONFIG", "KAFKA_SASL_MECHANISM");
            assertSecretRef(
                    env(deployment, "KAFKA_SSL_KEYSTORE_PASSWORD"),
                    "route-" + component + "-kafka-tls",
                    jks ? "storepass" : "user.password");

            Volume keystore = deployment.getSpec().getTemplate().getSpec().getVolumes().stream()
                    .filter(v -> v.getName().equals("kafka-keystore"))
                    .findFirst()
                    .orElseThrow();
            assertThat(keystore.getSecret().getSecretName()).isEqualTo("route-" + component + "-kafka-tls");
            assertThat(keystore.getSecret().getItems()).singleElement().satisfies(item -> {
                assertThat(item.getKey()).isEqualTo(jks ? "keystore.jks" : "user.p12");
                assertThat(item.getPath()).isEqualTo(file);
            });
            VolumeMount mount = container(deployment).getVolumeMounts().stream()
                    .filter(m -> m.getName().equals("kafka-keystore"))
                    .findFirst()
                    .orElseThrow();
            assertThat(mount.getMountPath()).isEqualTo("/etc/route-gateway/kafka-keystore");
            assertThat(mount.getReadOnly()).isTrue();
        }
    }

    @Test
    void theDeprecatedReleaseWideJaasSecretStillRenders() {
        ManifestRules rules = render(values(
                protocol("SASL_SSL"),
                Map.of(
                        "kafka.saslMechanism",
                        "SCRAM-SHA-512",
                        "kafka.saslJaasConfig.existingSecret",
                        "route-gateway-kafka")));

        assertThat(rules.all(Renders.services())).isEmpty();
        for (String component : COMPONENTS) {
            Deployment deployment = deployment(rules, component);
            assertSecretRef(env(deployment, "KAFKA_SASL_JAAS_CONFIG"), "route-gateway-kafka", "sasl.jaas.config");
            assertThat(rules.environment(deployment)).containsEntry("KAFKA_SASL_MECHANISM", "SCRAM-SHA-512");
        }
    }

    @Test
    void saslWithoutAUserForEveryServiceIsRejected() {
        assertRejected(
                values(protocol("SASL_SSL"), Map.of("gateway.kafka.scram.existingSecret", "route-gateway-kafka")),
                "state",
                "existingSecret");
    }

    @Test
    void credentialsThatDoNotFitTheProtocolAreRejected() {
        // SCRAM users on a listener without SASL.
        assertRejected(values(protocol("PLAINTEXT"), scramUsers()), "scram", "existingSecret");
        assertRejected(values(protocol("SSL"), scramUsers()), "scram", "existingSecret");
        // A client certificate on a SASL listener, next to the SCRAM user.
        assertRejected(values(protocol("SASL_SSL"), scramUsers(), mtls("gateway")), "mtls", "existingSecret");
        // Client certificates without SSL.
        assertRejected(mtls("gateway", "state", "recovery"), "mtls", "existingSecret");
        // Per-service users mixed with the release-wide JAAS line (one shared principal).
        assertRejected(
                values(protocol("SASL_SSL"), scramUsers(), Map.of("kafka.saslJaasConfig.existingSecret", "shared")),
                "scram",
                "existingSecret");
        // The release-wide JAAS line without SASL.
        assertRejected(Map.of("kafka.saslJaasConfig.existingSecret", "shared"), "saslJaasConfig");
        // A non-SCRAM mechanism with SCRAM users.
        assertRejected(
                values(protocol("SASL_SSL"), scramUsers(), Map.of("kafka.saslMechanism", "PLAIN")), "saslMechanism");
    }

    @Test
    void mtlsForSomeServicesOnlyIsRejected() {
        assertRejected(values(protocol("SSL"), mtls("gateway", "state")), "recovery", "mtls");
    }

    @Test
    void malformedCredentialSettingsAreRejected() {
        assertRejected(
                values(protocol("SASL_SSL"), scramUsers(), Map.of("state.kafka.scram.username", "a\" password=\"x")),
                "username");
        assertRejected(
                values(protocol("SASL_SSL"), scramUsers(), Map.of("state.kafka.scram.username", "")), "username");
        assertRejected(
                values(
                        protocol("SSL"),
                        mtls("gateway", "state", "recovery"),
                        Map.of("gateway.kafka.mtls.keystoreType", "PEM")),
                "keystoreType");
        assertRejected(
                values(protocol("SASL_SSL"), scramUsers(), Map.of("gateway.kafka.scram.password", "hunter2")),
                "password");
    }

    @Test
    void bothSigningKeysAreWiredByDefaultEachIntoItsServiceOnly() {
        ManifestRules rules = Renders.rules(Renders.DEFAULTS);

        Deployment state = deployment(rules, "state");
        assertSecretRef(env(state, "ROUTE_STATE_SIGNING_PRIVATE_KEY"), "route-gateway-state-signing", "private-key");
        assertThat(rules.environment(state))
                .containsEntry("ROUTE_STATE_SIGNING_KEY_ID", "k1")
                .doesNotContainKeys("ROUTE_STATE_SIGNING_PUBLIC_KEYS", "ROUTE_STATE_SIGNING_NOT_AFTER");
        EnvVar publicKeys = env(deployment(rules, "gateway"), "ROUTE_STATE_SIGNING_PUBLIC_KEYS");
        assertThat(publicKeys.getValueFrom().getConfigMapKeyRef().getName())
                .isEqualTo("route-gateway-state-signing-public");
        assertThat(publicKeys.getValueFrom().getConfigMapKeyRef().getKey()).isEqualTo("public-keys");
        for (String component : List.of("gateway", "recovery")) {
            assertThat(rules.environment(deployment(rules, component)))
                    .doesNotContainKeys("ROUTE_STATE_SIGNING_PRIVATE_KEY", "ROUTE_STATE_SIGNING_KEY_ID");
        }
        assertThat(rules.environment(deployment(rules, "recovery")))
                .doesNotContainKey("ROUTE_STATE_SIGNING_PUBLIC_KEYS");
        assertThat(rules.internalAccess()).isEmpty();
    }

    @Test
    void thePublicKeysMayBeAPlainValueOrASecretEntry() throws Exception {
        String key = "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=";
        // A list of two: through a values file, as --set would split it at the comma.
        Path values = Files.createTempFile("signing-", ".yaml");
        Files.writeString(values, "gateway:\n  signing:\n    publicKeys: k1=" + key + ",k2=" + key + "\n");
        ManifestRules plain =
                new ManifestRules(StrictManifestReader.read(ChartRenderer.template(RepoPaths.chart(), values)));
        Files.delete(values);
        ManifestRules fromSecret = render(Map.of(
                "gateway.signing.existingSecret", "route-signing-public",
                "gateway.signing.key", "keys",
                "state.signing.privateKey.existingSecret", "route-signing",
                "state.signing.keyId", "k2",
                "state.signing.notAfter", "2027-06-30T00:00:00Z"));

        // A plain value goes into the gateway's ConfigMap like every other non-secret setting.
        assertThat(plain.environment(deployment(plain, "gateway")))
                .containsEntry("ROUTE_STATE_SIGNING_PUBLIC_KEYS", "k1=" + key + ",k2=" + key);
        assertThat(envNames(deployment(plain, "gateway"))).doesNotContain("ROUTE_STATE_SIGNING_PUBLIC_KEYS");
        assertSecretRef(
                env(deployment(fromSecret, "gateway"), "ROUTE_STATE_SIGNING_PUBLIC_KEYS"),
                "route-signing-public",
                "keys");
        Deployment state = deployment(fromSecret, "state");
        assertSecretRef(env(state, "ROUTE_STATE_SIGNING_PRIVATE_KEY"), "route-signing", "private-key");
        assertThat(fromSecret.environment(state))
                .containsEntry("ROUTE_STATE_SIGNING_KEY_ID", "k2")
                .containsEntry("ROUTE_STATE_SIGNING_NOT_AFTER", "2027-06-30T00:00:00Z");
        assertThat(fromSecret.environment(deployment(fromSecret, "gateway")))
                .doesNotContainKey("ROUTE_STATE_SIGNING_NOT_AFTER");
        assertThat(fromSecret.all(Renders.services())).isEmpty();
    }

    @Test
    void missingOrConflictingSigningKeysAreRejected() {
        assertRejected(
                Map.of("gateway.signing.publicKeys", "k1=AAAA", "gateway.signing.existingSecret", "route-signing"),
                "existingSecret");
        assertRejected(Map.of("gateway.signing.existingConfigMap", ""), "existingConfigMap");
        assertRejected(Map.of("gateway.signing.publicKeys", "k1 AAAA"), "publicKeys");
        assertRejected(Map.of("state.signing.privateKey.existingSecret", ""), "existingSecret");
        assertRejected(Map.of("state.signing.keyId", ""), "keyId");
    }

    @Test
    void eachProducerSignsWithItsOwnKeyAndOnlyStateServiceHoldsTheirPublicKeys() {
        ManifestRules rules = Renders.rules(Renders.DEFAULTS);

        Deployment gateway = deployment(rules, "gateway");
        Deployment recovery = deployment(rules, "recovery");
        Deployment state = deployment(rules, "state");
        assertSecretRef(
                env(gateway, "ROUTE_PRODUCER_SIGNING_PRIVATE_KEY"), "route-gateway-gateway-signing", "private-key");
        assertSecretRef(
                env(recovery, "ROUTE_PRODUCER_SIGNING_PRIVATE_KEY"), "route-gateway-recovery-signing", "private-key");
        assertThat(rules.environment(gateway)).containsEntry("ROUTE_PRODUCER_SIGNING_KEY_ID", "gateway-k1");
        assertThat(rules.environment(recovery)).containsEntry("ROUTE_PRODUCER_SIGNING_KEY_ID", "recovery-k1");
        EnvVar publicKeys = env(state, "ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS");
        assertThat(publicKeys.getValueFrom().getConfigMapKeyRef().getName())
                .isEqualTo("route-gateway-producer-signing-public");
        assertThat(publicKeys.getValueFrom().getConfigMapKeyRef().getKey()).isEqualTo("public-keys");
        // state-service holds no producer's private key; the producers hold no producer public keys
        assertThat(envNames(state)).doesNotContain("ROUTE_PRODUCER_SIGNING_PRIVATE_KEY");
        assertThat(rules.environment(state)).doesNotContainKey("ROUTE_PRODUCER_SIGNING_KEY_ID");
        for (Deployment producer : List.of(gateway, recovery)) {
            assertThat(envNames(producer)).doesNotContain("ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS");
            assertThat(rules.environment(producer)).doesNotContainKey("ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS");
        }
        assertThat(rules.internalAccess()).isEmpty();
    }

    @Test
    void theProducerKeysMayBeRotatedAndThePublicKeysComeFromAPlainValueOrASecret() throws Exception {
        String key = "MCowBQYDK2VwAyEAyL++vtLwIJIfzGajycvV3kZzyNJ4oMg1S/7M8jimpis=";
        Path values = Files.createTempFile("producer-signing-", ".yaml");
        Files.writeString(
                values,
                "state:\n  producerSigning:\n    publicKeys: gateway-k1=" + key + ",gateway-k2=" + key + ",recovery-k1="
                        + key + "\n");
        ManifestRules plain =
                new ManifestRules(StrictManifestReader.read(ChartRenderer.template(RepoPaths.chart(), values)));
        Files.delete(values);
        ManifestRules fromSecret = render(Map.of(
                "state.producerSigning.existingSecret", "route-producers-public",
                "state.producerSigning.key", "keys",
                "gateway.producerSigning.privateKey.existingSecret", "route-gateway-signing-2",
                "gateway.producerSigning.keyId", "gateway-k2"));

        assertThat(plain.environment(deployment(plain, "state")))
                .containsEntry(
                        "ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS",
                        "gateway-k1=" + key + ",gateway-k2=" + key + ",recovery-k1=" + key);
        assertThat(envNames(deployment(plain, "state"))).doesNotContain("ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS");
        assertSecretRef(
                env(deployment(fromSecret, "state"), "ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS"),
                "route-producers-public",
                "keys");
        Deployment gateway = deployment(fromSecret, "gateway");
        assertSecretRef(env(gateway, "ROUTE_PRODUCER_SIGNING_PRIVATE_KEY"), "route-gateway-signing-2", "private-key");
        assertThat(fromSecret.environment(gateway)).containsEntry("ROUTE_PRODUCER_SIGNING_KEY_ID", "gateway-k2");
        assertThat(fromSecret.internalAccess()).isEmpty();
    }

    @Test
    void missingConflictingOrSharedProducerKeysAreRejected() {
        assertRejected(
                Map.of(
                        "state.producerSigning.publicKeys",
                        "gateway-k1=AAAA",
                        "state.producerSigning.existingSecret",
                        "route-producers"),
                "existingSecret");
        assertRejected(Map.of("state.producerSigning.existingConfigMap", ""), "existingConfigMap");
        assertRejected(Map.of("state.producerSigning.publicKeys", "gateway-k1 AAAA"), "publicKeys");
        assertRejected(Map.of("gateway.producerSigning.privateKey.existingSecret", ""), "existingSecret");
        assertRejected(Map.of("recovery.producerSigning.keyId", ""), "keyId");
        assertRejected(Map.of("recovery.producerSigning.keyId", "bad id"), "keyId");
        // one Secret for both producers' keys: a compromised gateway pod could then sign as recovery-service
        ManifestRules shared =
                render(Map.of("recovery.producerSigning.privateKey.existingSecret", "route-gateway-gateway-signing"));
        assertThat(shared.internalAccess())
                .anyMatch(violation -> violation.contains("ROUTE_PRODUCER_SIGNING_PRIVATE_KEY comes from Secret")
                        && violation.contains("each producer signs with its own"));
    }

    @Test
    void theUsageBatchWindowReachesTheGatewaysOnlyAndIsADuration() {
        ManifestRules defaults = Renders.rules(Renders.DEFAULTS);
        assertThat(defaults.environment(deployment(defaults, "gateway")))
                .containsEntry("GATEWAY_PUBLISH_USAGE_BATCH_WINDOW", "20ms");
        // the rolling-upgrade setting: each record alone, for a state-service older than batches
        ManifestRules upgrade = render(Map.of("gateway.usageBatchWindow", "0s"));
        assertThat(upgrade.all(Renders.services())).isEmpty();
        assertThat(upgrade.environment(deployment(upgrade, "gateway")))
                .containsEntry("GATEWAY_PUBLISH_USAGE_BATCH_WINDOW", "0s");
        for (String component : List.of("state", "recovery")) {
            assertThat(upgrade.environment(deployment(upgrade, component)))
                    .doesNotContainKey("GATEWAY_PUBLISH_USAGE_BATCH_WINDOW");
        }
        assertRejected(Map.of("gateway.usageBatchWindow", "soon"), "usageBatchWindow");
        assertRejected(Map.of("gateway.usageBatchWindow", "20ms\u0000"), "usageBatchWindow");
    }

    @Test
    void peersOutcomesAreOnByDefaultReachTheGatewaysOnlyAndAreABoolean() {
        ManifestRules defaults = Renders.rules(Renders.DEFAULTS);
        assertThat(defaults.environment(deployment(defaults, "gateway")))
                .containsEntry("GATEWAY_VIEW_PEER_OUTCOMES", "true");
        ManifestRules off = render(Map.of("gateway.peerOutcomes", false));
        assertThat(off.all(Renders.services())).isEmpty();
        assertThat(off.environment(deployment(off, "gateway"))).containsEntry("GATEWAY_VIEW_PEER_OUTCOMES", "false");
        for (String component : List.of("state", "recovery")) {
            assertThat(off.environment(deployment(off, component))).doesNotContainKey("GATEWAY_VIEW_PEER_OUTCOMES");
        }
        assertRejected(Map.of("gateway.peerOutcomes", "yes"), "peerOutcomes");
        assertRejected(Map.of("gateway.peerOutcomes", "true\u0000"), "peerOutcomes");
    }

    @Test
    void acceptingV1SecretsIsAnOptInForTheReadersOnly() {
        ManifestRules upgrade = render(Map.of("secrets.acceptV1Secrets", true));

        assertThat(upgrade.all(Renders.services())).isEmpty();
        for (String component : List.of("gateway", "recovery")) {
            assertThat(upgrade.environment(deployment(upgrade, component)))
                    .containsEntry("ROUTE_SECRET_ACCEPT_V1", "true");
            assertThat(Renders.rules(Renders.DEFAULTS)
                            .environment(deployment(Renders.rules(Renders.DEFAULTS), component)))
                    .doesNotContainKey("ROUTE_SECRET_ACCEPT_V1");
        }
        // The switch is exempt from the sensitive-name rule only as a boolean.
        assertThat(ManifestRules.sensitive("ROUTE_SECRET_ACCEPT_V1", "true")).isFalse();
        assertThat(ManifestRules.sensitive("ROUTE_SECRET_ACCEPT_V1", "hunter2")).isTrue();
        // state-service re-seals v1 secrets itself; it never needs to accept them.
        assertThat(upgrade.environment(deployment(upgrade, "state"))).doesNotContainKey("ROUTE_SECRET_ACCEPT_V1");
    }

    @Test
    void theDocumentedAclsNameTheChartsDefaultUsers() throws Exception {
        JsonNode values = new YAMLMapper()
                .readTree(RepoPaths.chart().resolve("values.yaml").toFile());
        String docs = Files.readString(RepoPaths.root().resolve("docs/deploy.md"));
        String acls = docs.substring(docs.indexOf("<!-- kafka-acls:begin"), docs.indexOf("<!-- kafka-acls:end -->"));
        Set<String> principals = new TreeSet<>();
        Matcher principal = Pattern.compile("--allow-principal (\\S+)").matcher(acls);
        while (principal.find()) {
            principals.add(principal.group(1));
        }

        Set<String> users = new TreeSet<>();
        for (String component : COMPONENTS) {
            users.add("User:"
                    + values.path(component)
                            .path("kafka")
                            .path("scram")
                            .path("username")
                            .asText());
        }
        assertThat(principals).isEqualTo(users).hasSize(3);
        // Only state-service's user may write the state topics.
        String stateUser = "User:"
                + values.path("state")
                        .path("kafka")
                        .path("scram")
                        .path("username")
                        .asText();
        List<String> writers = acls.replace("\\\n", " ")
                .lines()
                .filter(line -> line.contains("--operation Write") && line.contains("--topic route.credential-state"))
                .toList();
        assertThat(writers).isNotEmpty().allMatch(line -> line.contains("--allow-principal " + stateUser + " "));
    }

    @Test
    void aJaasLineIsAcceptedOnlyWhenEachPasswordIsAReferenceToASecretVariable() {
        Set<String> secrets = Set.of("ROUTE_KAFKA_SCRAM_PASSWORD");
        String prefix = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" ";

        assertThat(ManifestRules.secretOnlyThroughReferences(
                        prefix + "password=\"$(ROUTE_KAFKA_SCRAM_PASSWORD)\";", secrets))
                .isTrue();
        assertThat(ManifestRules.secretOnlyThroughReferences(prefix + "password=\"hunter2\";", secrets))
                .isFalse();
        assertThat(ManifestRules.secretOnlyThroughReferences(prefix + "password=\"$(SOME_PLAIN_VARIABLE)\";", secrets))
                .isFalse();
        assertThat(ManifestRules.secretOnlyThroughReferences(
                        prefix + "password=\"x$(ROUTE_KAFKA_SCRAM_PASSWORD)\";", secrets))
                .isFalse();
        assertThat(ManifestRules.secretOnlyThroughReferences("$(ROUTE_KAFKA_SCRAM_PASSWORD)", secrets))
                .isFalse();
    }
}
