package io.routegateway.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A single-node broker that a test can take away and bring back: {@link #stop()} halts it like a
 * crash and keeps its data, {@link #restart()} starts it again on the same ports with the same data
 * directory, so clients reconnect to the same address and find their topics and offsets. Like
 * {@link KafkaBrokerResource}'s broker, it runs in a child JVM that halts when this JVM ends.
 */
public final class RestartableKafkaBroker implements AutoCloseable {

    private final Path dataDir;
    private final int port;
    private final int controllerPort;
    private final Duration startTimeout;
    private BrokerProcess process;

    private RestartableKafkaBroker(BrokerProcess process, int controllerPort, Duration startTimeout) {
        this.process = process;
        this.dataDir = process.dataDir();
        this.port = process.port();
        this.controllerPort = controllerPort;
        this.startTimeout = startTimeout;
    }

    /** Starts a broker on two free loopback ports in a fresh temporary directory. */
    public static RestartableKafkaBroker start(Duration startTimeout) {
        try {
            int[] ports = BrokerProcess.freePorts(2);
            Path dataDir = Files.createTempDirectory("route-kafka-");
            return new RestartableKafkaBroker(
                    BrokerProcess.start(dataDir, ports[0], ports[1], startTimeout), ports[1], startTimeout);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start a Kafka broker", e);
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Halts the broker (no clean shutdown, like a crash) and waits for its exit; the data stays. */
    public synchronized void stop() {
        if (process != null) {
            process.halt();
            process = null;
        }
    }

    /** Starts the broker again on the same ports and data directory and waits until it serves. */
    public synchronized void restart() {
        stop();
        process = BrokerProcess.start(dataDir, port, controllerPort, startTimeout);
    }

    /** Stops the broker and deletes its data. */
    @Override
    public synchronized void close() {
        if (process != null) {
            process.close();
            process = null;
        } else {
            BrokerProcess.deleteRecursively(dataDir);
        }
    }
}
