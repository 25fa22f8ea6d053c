package io.routegateway.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.routegateway.broker.BrokerMain;

/**
 * One single-node KRaft broker in a child JVM, started from the kafka-broker module's classpath
 * file. The child runs with {@code --die-with-stdin}: this process holds the write end of its
 * stdin pipe, so the broker halts when this JVM ends, however it ends.
 */
final class BrokerProcess implements AutoCloseable {

    static final String READY_LINE = "Kafka Server started";
    private static final String CLASSPATH_RESOURCE = "io/routegateway/broker/broker-classpath.txt";
    private static final String MAIN_CLASS_RESOURCE = "io/routegateway/broker/BrokerMain.class";

    private final Process process;
    private final OutputStream stdin;
    private final Path dataDir;
    private final Path logFile;
    /** Length of the log before this start: a restart appends, and only its own lines count. */
    private final long logStart;

    private final int port;

    private BrokerProcess(Process process, Path dataDir, Path logFile, long logStart, int port) {
        this.process = process;
        this.stdin = process.getOutputStream();
        this.dataDir = dataDir;
        this.logFile = logFile;
        this.logStart = logStart;
        this.port = port;
    }

    /** Starts a broker on two free loopback ports in a fresh temporary directory and waits until it serves. */
    static BrokerProcess start(Duration timeout) {
        try {
            int[] ports = freePorts(2);
            return start(Files.createTempDirectory("route-kafka-"), ports[0], ports[1], timeout);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the test Kafka broker", e);
        }
    }

    /**
     * Starts a broker on the given ports with its data under {@code dataDir} and waits until it serves.
     * A directory that already holds a broker's data is reused as it is (a restart).
     */
    static BrokerProcess start(Path dataDir, int brokerPort, int controllerPort, Duration timeout) {
        return start(dataDir, brokerPort, controllerPort, timeout, List.of());
    }

    /**
     * As {@link #start(Path, int, int, Duration)}, with more arguments for {@link BrokerMain} (e.g.
     * {@code --overrides <file>} for a broker with SASL listeners and an authorizer).
     */
    static BrokerProcess start(
            Path dataDir, int brokerPort, int controllerPort, Duration timeout, List<String> brokerArguments) {
        try {
            Path logFile = dataDir.resolve("broker.log");
            int[] ports = {brokerPort, controllerPort};
            Files.createDirectories(dataDir);
            long logStart = Files.exists(logFile) ? Files.size(logFile) : 0;
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(
                    java,
                    "-Xmx512m",
                    "-XX:+UseSerialGC",
                    "-cp",
                    brokerClasspath(),
                    BrokerMain.class.getName(),
                    dataDir.resolve("data").toString(),
                    Integer.toString(ports[0]),
                    Integer.toString(ports[1]),
                    "--die-with-stdin"));
            command.addAll(brokerArguments);
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
            BrokerProcess broker = new BrokerProcess(process, dataDir, logFile, logStart, ports[0]);
            try {
                broker.awaitReady(timeout);
            } catch (RuntimeException e) {
                broker.close();
                throw e;
            }
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the test Kafka broker", e);
        }
    }

    String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path dataDir() {
        return dataDir;
    }

    int port() {
        return port;
    }

    /** Closes the broker's stdin (it halts at once), waits for the exit, and deletes its directory. */
    @Override
    public void close() {
        halt();
        deleteRecursively(dataDir);
    }

    /** Closes the broker's stdin (it halts at once, like a crash) and waits for the exit; the data stays. */
    void halt() {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // the pipe is already gone: the broker is exiting anyway
        }
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(15, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "test Kafka broker exited with code " + process.exitValue() + ":\n" + logTail());
            }
            if (logContains(READY_LINE) && accepts(port)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "test Kafka broker not ready after " + timeout.toSeconds() + " s:\n" + logTail());
            }
            sleep(100);
        }
    }

    private boolean logContains(String text) {
        try {
            if (!Files.exists(logFile)) {
                return false;
            }
            byte[] log = Files.readAllBytes(logFile);
            int from = (int) Math.min(logStart, log.length);
            return new String(log, from, log.length - from, StandardCharsets.UTF_8).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no broker log: " + e.getMessage() + ")";
        }
    }

    /**
     * The broker's classpath: the dependency list that the kafka-broker build wrote as a resource, plus
     * the jar or classes directory that holds {@link BrokerMain} itself.
     */
    static String brokerClasspath() throws IOException {
        ClassLoader loader = BrokerMain.class.getClassLoader();
        String dependencies;
        try (InputStream in = loader.getResourceAsStream(CLASSPATH_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + CLASSPATH_RESOURCE
                        + " is missing: build the kafka-broker module (mvn -pl kafka-broker -am install)");
            }
            dependencies = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        return dependencies + File.pathSeparator + brokerMainLocation(loader);
    }

    private static Path brokerMainLocation(ClassLoader loader) {
        URL url = loader.getResource(MAIN_CLASS_RESOURCE);
        if (url == null) {
            throw new IllegalStateException("cannot find " + MAIN_CLASS_RESOURCE);
        }
        String text = url.toString();
        if (text.startsWith("jar:file:")) {
            return Path.of(URI.create(text.substring("jar:".length(), text.indexOf("!/"))));
        }
        if (text.startsWith("file:")) {
            // .../classes/io/routegateway/broker/BrokerMain.class -> .../classes
            Path classFile = Path.of(URI.create(text));
            return classFile.getParent().getParent().getParent().getParent();
        }
        throw new IllegalStateException("BrokerMain is loaded from an unsupported location: " + text);
    }

    static int[] freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }

    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the test Kafka broker", e);
        }
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temporary directory is harmless
        }
    }
}
