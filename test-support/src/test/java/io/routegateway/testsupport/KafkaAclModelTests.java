package io.routegateway.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ACL model of docs/deploy.md ("Kafka as a trust boundary") on a real broker: a KRaft broker of its own (free
 * ports, not the shared test broker) with a SASL_PLAINTEXT listener (SCRAM-SHA-512), an SSL listener that requires
 * client certificates and maps them to principals with the documented {@code ssl.principal.mapping.rules}, and
 * the StandardAuthorizer; SCRAM users and certificates for the services' principals; then every
 * {@code kafka-acls.sh} line of the documented block, run as it is through the real tool
 * (org.apache.kafka.tools.AclCommand). The docs are the only copy of the ACLs, so the documentation and this test
 * cannot drift apart.
 */
class KafkaAclModelTests {

    /** Topic names as in route-core's Topics (test-support does not depend on route-core). */
    static final String OUTCOMES = "route.outcomes";

    static final String USAGE = "route.usage";
    /** The gateways' leases (team and key limits shared between the replicas). */
    static final String ADMISSIONS = "route.admissions";

    static final List<String> STATE_TOPICS = List.of(
            "route.credential-state",
            "route.access-keys",
            "route.groups",
            "route.settings",
            "route.teams",
            "route.spend");
    static final List<String> DEAD_LETTER_TOPICS = List.of("route.outcomes.dlq", "route.usage.dlq");

    static final String GATEWAY = "route-gateway";
    static final String STATE = "route-state";
    static final String RECOVERY = "route-recovery";
    /** Authenticated, but granted nothing: stands for every other workload with access to the cluster. */
    static final String OTHER = "route-other";

    private static final String ADMIN = "admin";
    private static final String ADMIN_PASSWORD = "admin-" + UUID.randomUUID();
    private static final Map<String, String> PASSWORDS = new HashMap<>();

    private static final Pattern ACL_BLOCK = Pattern.compile(
            "<!-- kafka-acls:begin[^>]*-->\\s*```shell\\n(.*?)```\\s*<!-- kafka-acls:end -->", Pattern.DOTALL);

    private static final String STORE_PASSWORD = "store-" + UUID.randomUUID();
    private static final Pattern MAPPING_RULES = Pattern.compile("ssl\\.principal\\.mapping\\.rules=(\\S+)`");

    private static Path workDir;
    private static BrokerProcess broker;
    private static int sslPort;
    private static List<List<String>> aclCommands;

    @BeforeAll
    static void startSecuredBrokerAndApplyTheDocumentedAcls() throws Exception {
        aclCommands = documentedAclCommands();
        workDir = Files.createTempDirectory("route-kafka-acl-");
        createCertificates(List.of("broker", GATEWAY, STATE));
        int[] ports = BrokerProcess.freePorts(3);
        sslPort = ports[2];
        Path overrides = workDir.resolve("secured.properties");
        Files.writeString(overrides, securedBrokerConfig(ports[0], ports[1], ports[2]), StandardCharsets.UTF_8);
        broker = BrokerProcess.start(
                workDir.resolve("broker"),
                ports[0],
                ports[1],
                KafkaBrokerResource.START_TIMEOUT,
                List.of(
                        "--overrides",
                        overrides.toString(),
                        "--add-scram",
                        "SCRAM-SHA-512=[name=" + ADMIN + ",password=" + ADMIN_PASSWORD + "]"));

        try (Admin admin = Admin.create(clientConfig(ADMIN, ADMIN_PASSWORD))) {
            List<UserScramCredentialUpsertion> users = new ArrayList<>();
            for (String user : List.of(GATEWAY, STATE, RECOVERY, OTHER)) {
                String password = "pw-" + UUID.randomUUID();
                PASSWORDS.put(user, password);
                users.add(new UserScramCredentialUpsertion(
                        user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password));
            }
            admin.alterUserScramCredentials(new ArrayList<>(users)).all().get(30, TimeUnit.SECONDS);
            List<NewTopic> topics = new ArrayList<>();
            for (String topic : allTopics()) {
                topics.add(new NewTopic(topic, 1, (short) 1));
            }
            admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
        }

        Path adminProperties = workDir.resolve("admin.properties");
        Properties adminConfig = new Properties();
        clientConfig(ADMIN, ADMIN_PASSWORD).forEach((k, v) -> adminConfig.setProperty(k, String.valueOf(v)));
        adminConfig.remove(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        try (var out = Files.newBufferedWriter(adminProperties, StandardCharsets.UTF_8)) {
            adminConfig.store(out, null);
        }
        for (List<String> command : aclCommands) {
            runAclCommand(command, adminProperties);
        }
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
        if (workDir != null) {
            BrokerProcess.deleteRecursively(workDir);
        }
    }

    @Test
    void theDocumentedBlockGrantsTheThreeServicePrincipals() {
        String principals = aclCommands.stream()
                .map(c -> c.get(c.indexOf("--allow-principal") + 1))
                .distinct()
                .sorted()
                .collect(Collectors.joining(","));

        assertThat(principals).isEqualTo("User:route-gateway,User:route-recovery,User:route-state");
        assertThat(aclCommands).allSatisfy(c -> assertThat(c).contains("--add").doesNotContain("--deny-principal"));
    }

    @Test
    void theGatewayWritesOutcomesAndUsageButNoStateTopic() throws Exception {
        try (KafkaProducer<String, String> gateway = producer(GATEWAY)) {
            assertThat(send(gateway, OUTCOMES)).isGreaterThanOrEqualTo(0);
            assertThat(send(gateway, USAGE)).isGreaterThanOrEqualTo(0);
            for (String topic : concat(STATE_TOPICS, DEAD_LETTER_TOPICS)) {
                assertRefused(gateway, topic);
            }
        }
    }

    @Test
    void recoveryWritesOutcomesAndUsageButNoStateTopic() throws Exception {
        try (KafkaProducer<String, String> recovery = producer(RECOVERY)) {
            assertThat(send(recovery, OUTCOMES)).isGreaterThanOrEqualTo(0);
            assertThat(send(recovery, USAGE)).isGreaterThanOrEqualTo(0);
            for (String topic : concat(STATE_TOPICS, DEAD_LETTER_TOPICS)) {
                assertRefused(recovery, topic);
            }
        }
    }

    @Test
    void stateServiceWritesTheStateTopicsAndTheDeadLettersAndTheGatewayReadsThem() throws Exception {
        Map<String, Long> offsets = new HashMap<>();
        try (KafkaProducer<String, String> state = producer(STATE)) {
            for (String topic : concat(STATE_TOPICS, DEAD_LETTER_TOPICS)) {
                offsets.put(topic, send(state, topic));
            }
            // state-service consumes outcomes and usage; it never produces to them.
            assertRefused(state, OUTCOMES);
            assertRefused(state, USAGE);
        }

        // The gateway reads the state topics as StateTopicsReader does: partitions assigned, no group.
        try (KafkaConsumer<String, String> gateway = consumer(GATEWAY, null)) {
            for (String topic : STATE_TOPICS) {
                TopicPartition partition = new TopicPartition(topic, 0);
                gateway.assign(List.of(partition));
                gateway.seek(partition, offsets.get(topic));
                assertThat(pollOne(gateway).topic()).isEqualTo(topic);
            }
        }
    }

    @Test
    void stateServiceConsumesOutcomesInItsGroupAndTheGatewayReadsThemWithoutOne() throws Exception {
        long offset;
        try (KafkaProducer<String, String> gateway = producer(GATEWAY)) {
            offset = send(gateway, OUTCOMES);
        }
        try (KafkaConsumer<String, String> state = consumer(STATE, "state-service")) {
            TopicPartition partition = new TopicPartition(OUTCOMES, 0);
            state.assign(List.of(partition));
            state.seek(partition, offset);
            ConsumerRecord<String, String> record = pollOne(state);
            assertThat(record.offset()).isEqualTo(offset);
            state.commitSync(); // needs Read on the group
        }
        // a gateway reads its peers' outcomes as PeerOutcomesReader does: partitions assigned, no group ...
        try (KafkaConsumer<String, String> gateway = consumer(GATEWAY, null)) {
            TopicPartition partition = new TopicPartition(OUTCOMES, 0);
            gateway.assign(List.of(partition));
            gateway.seek(partition, offset);
            assertThat(pollOne(gateway).offset()).isEqualTo(offset);
        }
        // ... and cannot take part in state-service's group (it would take events away from it)
        try (KafkaConsumer<String, String> gateway = consumer(GATEWAY, "state-service")) {
            TopicPartition partition = new TopicPartition(OUTCOMES, 0);
            gateway.assign(List.of(partition));
            gateway.seek(partition, offset);
            assertThatThrownBy(() -> {
                        gateway.poll(Duration.ofSeconds(5));
                        gateway.commitSync();
                    })
                    .isInstanceOf(GroupAuthorizationException.class);
        }
        // recovery-service reads nothing
        try (KafkaConsumer<String, String> recovery = consumer(RECOVERY, null)) {
            recovery.assign(List.of(new TopicPartition(OUTCOMES, 0)));
            recovery.seekToBeginning(List.of(new TopicPartition(OUTCOMES, 0)));
            assertThatThrownBy(() -> recovery.poll(Duration.ofSeconds(10)))
                    .isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void gatewaysShareTheirLeasesOnTheAdmissionsTopicAndNoOtherServiceWritesIt() throws Exception {
        long offset;
        try (KafkaProducer<String, String> gateway = producer(GATEWAY)) {
            offset = send(gateway, ADMISSIONS);
        }
        // every replica reads every partition, as LeaseReader does: no group
        try (KafkaConsumer<String, String> gateway = consumer(GATEWAY, null)) {
            TopicPartition partition = new TopicPartition(ADMISSIONS, 0);
            gateway.assign(List.of(partition));
            gateway.seek(partition, offset);
            assertThat(pollOne(gateway).offset()).isEqualTo(offset);
        }
        // state-service reads them for route check in a group of its own per start, as CredentialLoad does
        try (KafkaConsumer<String, String> state = consumer(STATE, "state-service-leases-" + UUID.randomUUID())) {
            TopicPartition partition = new TopicPartition(ADMISSIONS, 0);
            state.assign(List.of(partition));
            state.seek(partition, offset);
            assertThat(pollOne(state).offset()).isEqualTo(offset);
            state.commitSync(); // needs Read on the group
        }
        try (KafkaProducer<String, String> state = producer(STATE)) {
            assertRefused(state, ADMISSIONS);
        }
        try (KafkaProducer<String, String> recovery = producer(RECOVERY)) {
            assertRefused(recovery, ADMISSIONS);
        }
    }

    @Test
    void aPrincipalWithoutAclsWritesNothing() throws Exception {
        try (KafkaProducer<String, String> other = producer(OTHER)) {
            for (String topic : allTopics()) {
                assertRefused(other, topic);
            }
        }
    }

    @Test
    void aClientWithoutValidCredentialsIsRefused() {
        Map<String, Object> wrongPassword = clientConfig(GATEWAY, "not-the-password");
        try (KafkaProducer<String, String> intruder =
                new KafkaProducer<>(producerConfig(wrongPassword), new StringSerializer(), new StringSerializer())) {
            assertThatThrownBy(() -> intruder.send(new ProducerRecord<>(STATE_TOPICS.get(0), "k", "v"))
                            .get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }

        // No SASL at all: the listener never completes a handshake, so no metadata ever arrives.
        Map<String, Object> anonymous = new HashMap<>();
        anonymous.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        anonymous.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 3000);
        try (KafkaProducer<String, String> intruder =
                new KafkaProducer<>(producerConfig(anonymous), new StringSerializer(), new StringSerializer())) {
            assertThatThrownBy(() -> intruder.send(new ProducerRecord<>(STATE_TOPICS.get(0), "k", "v"))
                            .get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
        }
    }

    @Test
    void withClientCertificatesTheSameAclsHoldForTheMappedPrincipals() throws Exception {
        try (KafkaProducer<String, String> gateway = tlsProducer(GATEWAY)) {
            assertThat(send(gateway, OUTCOMES)).isGreaterThanOrEqualTo(0);
            for (String topic : STATE_TOPICS) {
                assertRefused(gateway, topic);
            }
        }
        try (KafkaProducer<String, String> state = tlsProducer(STATE)) {
            for (String topic : STATE_TOPICS) {
                assertThat(send(state, topic)).isGreaterThanOrEqualTo(0);
            }
        }
    }

    @Test
    void aClientWithoutACertificateIsRefusedOnTheTlsListener() {
        Map<String, Object> config = tlsConfig(null);
        try (KafkaProducer<String, String> intruder =
                new KafkaProducer<>(producerConfig(config), new StringSerializer(), new StringSerializer())) {
            assertThatThrownBy(() -> intruder.send(new ProducerRecord<>(STATE_TOPICS.get(0), "k", "v"))
                            .get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SslAuthenticationException.class);
        }
    }

    // --- the documented commands ---

    /** Every kafka-acls.sh command of the marked block in docs/deploy.md, as argument lists. */
    static List<List<String>> documentedAclCommands() throws IOException {
        Path docs = repositoryRoot().resolve("docs/deploy.md");
        Matcher block = ACL_BLOCK.matcher(Files.readString(docs, StandardCharsets.UTF_8));
        assertThat(block.find()).as("docs/deploy.md has the kafka-acls block").isTrue();
        String joined = block.group(1).replace("\\\n", " ");
        List<List<String>> commands = new ArrayList<>();
        for (String line : joined.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("BOOTSTRAP=")) {
                continue;
            }
            List<String> words = List.of(trimmed.split("\\s+"));
            assertThat(words.get(0)).as("a line of the ACL block: %s", trimmed).isEqualTo("kafka-acls.sh");
            commands.add(words.subList(1, words.size()));
        }
        assertThat(commands).isNotEmpty();
        return commands;
    }

    private static void runAclCommand(List<String> documented, Path adminProperties)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                BrokerProcess.brokerClasspath(),
                "org.apache.kafka.tools.AclCommand"));
        for (String word : documented) {
            String argument = switch (word) {
                case "\"$BOOTSTRAP\"", "$BOOTSTRAP" -> broker.bootstrapServers();
                case "admin.properties" -> adminProperties.toString();
                default -> word;
            };
            assertThat(argument).as("an argument the test cannot pass as is").doesNotContain("$", "\"", "'");
            command.add(argument);
        }
        Path output = workDir.resolve("kafka-acls.log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .start();
        process.getOutputStream().close();
        boolean exited = process.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        assertThat(exited && process.exitValue() == 0)
                .as("kafka-acls.sh %s\n%s", String.join(" ", documented), Files.readString(output))
                .isTrue();
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("docs/deploy.md"))) {
            dir = dir.getParent();
        }
        assertThat(dir)
                .as("repository root above %s", Path.of("").toAbsolutePath())
                .isNotNull();
        return dir;
    }

    // --- broker and clients ---

    /**
     * A SASL_PLAINTEXT listener with SCRAM-SHA-512 for clients and the broker's own connections, an SSL listener
     * that requires a client certificate, the controller listener with SASL PLAIN (KRaft controllers cannot use
     * SCRAM), the StandardAuthorizer and no access where no ACL grants it.
     */
    static String securedBrokerConfig(int brokerPort, int controllerPort, int sslPort) throws IOException {
        String scramLogin = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + ADMIN
                + "\" password=\"" + ADMIN_PASSWORD + "\";";
        String plainLogin = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + ADMIN
                + "\" password=\"" + ADMIN_PASSWORD + "\" user_" + ADMIN + "=\"" + ADMIN_PASSWORD + "\";";
        return String.join(
                "\n",
                "listeners=SASL_PLAINTEXT://127.0.0.1:" + brokerPort + ",SSL://127.0.0.1:" + sslPort
                        + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=SASL_PLAINTEXT://127.0.0.1:" + brokerPort + ",SSL://127.0.0.1:" + sslPort,
                "listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,CONTROLLER:SASL_PLAINTEXT",
                "inter.broker.listener.name=SASL_PLAINTEXT",
                "sasl.enabled.mechanisms=SCRAM-SHA-512",
                "sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512",
                "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=" + scramLogin,
                "sasl.mechanism.controller.protocol=PLAIN",
                "listener.name.controller.sasl.enabled.mechanisms=PLAIN",
                "listener.name.controller.plain.sasl.jaas.config=" + plainLogin,
                "listener.name.ssl.ssl.client.auth=required",
                "listener.name.ssl.ssl.keystore.type=PKCS12",
                "listener.name.ssl.ssl.keystore.location=" + keystore("broker"),
                "listener.name.ssl.ssl.keystore.password=" + STORE_PASSWORD,
                "listener.name.ssl.ssl.truststore.type=PEM",
                "listener.name.ssl.ssl.truststore.location=" + workDir.resolve("clients.pem"),
                "ssl.principal.mapping.rules=" + documentedPrincipalMappingRules(),
                "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users=User:" + ADMIN,
                "allow.everyone.if.no.acl.found=false",
                "auto.create.topics.enable=false",
                "");
    }

    /** The mapping rule docs/deploy.md gives for client certificates. */
    static String documentedPrincipalMappingRules() throws IOException {
        Matcher rules = MAPPING_RULES.matcher(Files.readString(repositoryRoot().resolve("docs/deploy.md")));
        assertThat(rules.find())
                .as("docs/deploy.md names ssl.principal.mapping.rules")
                .isTrue();
        return rules.group(1);
    }

    /**
     * A self-signed certificate with CN=name in a PKCS12 key store per name (the shape the chart mounts), the
     * broker's with the loopback address as subject alternative name; clients.pem holds the clients' certificates
     * (the broker's trust store), broker.pem the broker's (the clients'). keytool runs for all names at once.
     */
    static void createCertificates(List<String> names) throws Exception {
        List<Process> generating = new ArrayList<>();
        for (String name : names) {
            List<String> command = new ArrayList<>(keytool(
                    "-genkeypair",
                    "-keystore",
                    keystore(name).toString(),
                    "-storetype",
                    "PKCS12",
                    "-storepass",
                    STORE_PASSWORD,
                    "-alias",
                    name,
                    "-dname",
                    "CN=" + name,
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-validity",
                    "2"));
            if (name.equals("broker")) {
                command.addAll(List.of("-ext", "SAN=ip:127.0.0.1"));
            }
            generating.add(start(command));
        }
        awaitAll(generating);
        List<Process> exporting = new ArrayList<>();
        for (String name : names) {
            exporting.add(start(keytool(
                    "-exportcert",
                    "-rfc",
                    "-keystore",
                    keystore(name).toString(),
                    "-storepass",
                    STORE_PASSWORD,
                    "-alias",
                    name,
                    "-file",
                    workDir.resolve(name + ".pem").toString())));
        }
        awaitAll(exporting);
        StringBuilder clients = new StringBuilder();
        for (String name : names) {
            if (!name.equals("broker")) {
                clients.append(Files.readString(workDir.resolve(name + ".pem")));
            }
        }
        Files.writeString(workDir.resolve("clients.pem"), clients.toString());
    }

    private static List<String> keytool(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        return command;
    }

    private static Process start(List<String> command) throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        workDir.resolve("keytool.log").toFile()))
                .start();
    }

    private static void awaitAll(List<Process> processes) throws Exception {
        for (Process process : processes) {
            boolean exited = process.waitFor(120, TimeUnit.SECONDS);
            assertThat(exited && process.exitValue() == 0)
                    .as("keytool: %s", Files.readString(workDir.resolve("keytool.log")))
                    .isTrue();
        }
    }

    private static Path keystore(String name) {
        return workDir.resolve(name + ".p12");
    }

    /** What the chart sets with {@code <service>.kafka.mtls}: a PKCS12 key store, a PEM trust store. */
    private static Map<String, Object> tlsConfig(String user) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + sslPort);
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
        config.put(
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG,
                workDir.resolve("broker.pem").toString());
        if (user != null) {
            config.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
            config.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, keystore(user).toString());
            config.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, STORE_PASSWORD);
        }
        return config;
    }

    private static KafkaProducer<String, String> tlsProducer(String user) {
        return new KafkaProducer<>(producerConfig(tlsConfig(user)), new StringSerializer(), new StringSerializer());
    }

    static Map<String, Object> clientConfig(String user, String password) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512");
        config.put(
                SaslConfigs.SASL_JAAS_CONFIG,
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
                        + password + "\";");
        return config;
    }

    private static Map<String, Object> producerConfig(Map<String, Object> client) {
        Map<String, Object> config = new HashMap<>(client);
        // The services' producers keep the client default: idempotent, acks=all.
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10000);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        return config;
    }

    private static KafkaProducer<String, String> producer(String user) {
        return new KafkaProducer<>(
                producerConfig(clientConfig(user, PASSWORDS.get(user))),
                new StringSerializer(),
                new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(String user, String group) {
        Map<String, Object> config = new HashMap<>(clientConfig(user, PASSWORDS.get(user)));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        if (group != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    /** Sends one record and returns its offset. */
    private static long send(KafkaProducer<String, String> producer, String topic) throws Exception {
        return producer.send(new ProducerRecord<>(topic, "key", "value"))
                .get(30, TimeUnit.SECONDS)
                .offset();
    }

    private static void assertRefused(KafkaProducer<String, String> producer, String topic) {
        assertThatThrownBy(() -> send(producer, topic))
                .as("produce to %s", topic)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(TopicAuthorizationException.class)
                .hasMessageContaining(topic);
    }

    private static ConsumerRecord<String, String> pollOne(KafkaConsumer<String, String> consumer) {
        for (int attempt = 0; attempt < 30; attempt++) {
            var records = consumer.poll(Duration.ofSeconds(1));
            if (!records.isEmpty()) {
                return records.iterator().next();
            }
        }
        throw new AssertionError("no record within 30 polls");
    }

    private static List<String> allTopics() {
        return concat(List.of(OUTCOMES, USAGE, ADMISSIONS), concat(STATE_TOPICS, DEAD_LETTER_TOPICS));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
