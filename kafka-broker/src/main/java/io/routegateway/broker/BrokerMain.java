package io.routegateway.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Entry point of the broker JVM: writes a single-node KRaft configuration, formats the log
 * directory on first use and runs {@code kafka.Kafka} in this process.
 *
 * <p>With {@code --die-with-stdin} the broker halts as soon as its standard input closes, so a
 * broker started by a test JVM (which holds the pipe) can never outlive it, however that JVM
 * ends.
 *
 * <p>{@code --overrides <file>} adds or replaces broker properties (e.g. SASL listeners and an authorizer), and
 * {@code --add-scram <credential>} creates a SCRAM credential when the log directory is formatted (KRaft stores
 * them in the metadata log, so a broker that authenticates its own inter-broker connection needs one before it
 * starts), in the syntax of {@code kafka-storage.sh format --add-scram}.
 *
 * <p>Usage: {@code BrokerMain <dataDir> <brokerPort> <controllerPort> [--die-with-stdin] [--overrides <file>]
 * [--add-scram <credential>]...}
 */
public final class BrokerMain {

    private BrokerMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            usage();
        }
        Path dataDir = Path.of(args[0]).toAbsolutePath();
        int brokerPort = Integer.parseInt(args[1]);
        int controllerPort = Integer.parseInt(args[2]);
        boolean dieWithStdin = false;
        Path overrides = null;
        List<String> scramCredentials = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            switch (args[i]) {
                case "--die-with-stdin" -> dieWithStdin = true;
                case "--overrides" -> overrides = Path.of(value(args, ++i));
                case "--add-scram" -> scramCredentials.add(value(args, ++i));
                default -> usage();
            }
        }
        if (dieWithStdin) {
            watchStdin();
        }
        Path properties = writeConfig(dataDir, brokerPort, controllerPort);
        if (overrides != null) {
            applyOverrides(properties, overrides);
        }
        if (!Files.exists(dataDir.resolve("logs").resolve("meta.properties"))) {
            format(properties, scramCredentials);
        }
        invokeMain("kafka.Kafka", properties.toString());
    }

    static Path writeConfig(Path dataDir, int brokerPort, int controllerPort) throws IOException {
        Files.createDirectories(dataDir.resolve("logs"));
        String config = String.join(
                "\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dataDir.resolve("logs"),
                "num.partitions=3",
                "auto.create.topics.enable=true",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "log.retention.hours=24",
                "");
        Path file = dataDir.resolve("server.properties");
        Files.writeString(file, config, StandardCharsets.UTF_8);
        return file;
    }

    private static void usage() {
        System.err.println("usage: BrokerMain <dataDir> <brokerPort> <controllerPort> [--die-with-stdin]"
                + " [--overrides <file>] [--add-scram <credential>]...");
        System.exit(2);
    }

    private static String value(String[] args, int index) {
        if (index >= args.length) {
            usage();
        }
        return args[index];
    }

    /** Rewrites the generated configuration with the keys of {@code overrides} added or replaced. */
    static void applyOverrides(Path properties, Path overrides) throws IOException {
        Properties merged = new Properties();
        try (Reader in = Files.newBufferedReader(properties, StandardCharsets.UTF_8)) {
            merged.load(in);
        }
        try (Reader in = Files.newBufferedReader(overrides, StandardCharsets.UTF_8)) {
            merged.load(in);
        }
        StringBuilder config = new StringBuilder();
        new TreeMap<>(merged)
                .forEach((key, value) ->
                        config.append(key).append('=').append(value).append('\n'));
        Files.writeString(properties, config.toString(), StandardCharsets.UTF_8);
    }

    /** Formats the log directory in a child JVM: StorageTool ends with System.exit. */
    private static void format(Path properties, List<String> scramCredentials)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                "kafka.tools.StorageTool",
                "format",
                "-t",
                UUID.randomUUID().toString().replace("-", "").substring(0, 22),
                "-c",
                properties.toString(),
                "--ignore-formatted"));
        for (String credential : scramCredentials) {
            command.add("--add-scram");
            command.add(credential);
        }
        Process process = new ProcessBuilder(command).inheritIO().start();
        int exit = process.waitFor();
        if (exit != 0) {
            throw new IllegalStateException("kafka storage format failed with exit code " + exit);
        }
    }

    private static void watchStdin() {
        Thread watcher = new Thread(
                () -> {
                    try (InputStream in = System.in) {
                        byte[] buffer = new byte[256];
                        while (in.read(buffer) >= 0) {
                            // keep reading until the parent closes the pipe
                        }
                    } catch (IOException ignored) {
                        // a broken pipe means the parent is gone, same as EOF
                    }
                    Runtime.getRuntime().halt(0);
                },
                "parent-watchdog");
        watcher.setDaemon(true);
        watcher.start();
    }

    private static void invokeMain(String className, String... args) throws Exception {
        Method main = Class.forName(className).getMethod("main", String[].class);
        main.invoke(null, (Object) args);
    }
}
