package io.routegateway.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One service of the system as a real process: {@code java -jar <module>/target/quarkus-app/quarkus-run.jar}
 * with its settings as environment variables, output appended to a log file. Stopped by its own PID
 * (SIGTERM, or SIGKILL for a crash). A small watchdog process reads a pipe held by this JVM and kills
 * the service when the pipe closes, so a service never outlives the test JVM, however it ends.
 */
public final class ServiceProcess {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Path jar;
    private final int port;
    private final int managementPort;
    private final Map<String, String> environment;
    private final Map<String, String> systemProperties;
    private final Path log;
    private Process process;
    private Process watchdog;

    ServiceProcess(
            String name,
            Path jar,
            int port,
            int managementPort,
            Map<String, String> environment,
            Map<String, String> systemProperties,
            Path log) {
        this.name = name;
        this.jar = jar;
        this.port = port;
        this.managementPort = managementPort;
        this.environment = Map.copyOf(environment);
        this.systemProperties = Map.copyOf(systemProperties);
        this.log = log;
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** The management interface: {@code /q/health/*} and {@code /q/metrics}, which the API port does not serve. */
    public String managementUrl() {
        return "http://127.0.0.1:" + managementPort;
    }

    public Path log() {
        return log;
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    public synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException(name + " is not running");
        }
        return process.pid();
    }

    /** Starts the process (it must not be running) without waiting for readiness. */
    public synchronized void start() {
        if (isAlive()) {
            throw new IllegalStateException(name + " is already running (PID " + process.pid() + ")");
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: package the service first (mvn -pl " + name
                    + " package -DskipTests, or run the whole build: mvn verify)");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1"));
        systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add(jar.toString());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(
                    log,
                    "==== starting " + name + " on port " + port + " (management " + managementPort + ")\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            process = builder.start();
            // the service's stdin is not used; close it so that nothing blocks on it
            process.getOutputStream().close();
            watchdog = watch(process.pid(), jar.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    /** Waits until {@code /q/health/ready} answers 200; fails at once if the process exits. */
    public void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            synchronized (this) {
                if (process == null || !process.isAlive()) {
                    throw new IllegalStateException(name + " exited during start:\n" + logTail(60));
                }
            }
            if (ready()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        name + " not ready after " + timeout.toSeconds() + " s:\n" + logTail(60));
            }
            sleep(200);
        }
    }

    /** Whether {@code /q/health/ready} answers 200 right now. */
    public boolean ready() {
        try {
            HttpResponse<Void> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(managementUrl() + "/q/health/ready"))
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The body of {@code /q/health/ready} (which checks are down), for failure messages. */
    public String readiness() {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(URI.create(managementUrl() + "/q/health/ready"))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            return "(no answer: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    /** SIGKILL: the process dies at once, with nothing flushed or committed (a crash). */
    public synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            await(process, 30);
            release();
        }
    }

    /** SIGTERM and a wait for a clean shutdown; SIGKILL after 30 s. */
    public synchronized void stop() {
        if (process != null) {
            process.destroy();
            if (!await(process, 30)) {
                process.destroyForcibly();
                await(process, 30);
            }
            release();
        }
    }

    /** The last lines of this service's log, for failure messages. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private void release() {
        process = null;
        if (watchdog != null) {
            try {
                // closing the pipe ends the watchdog; the service is already gone
                watchdog.getOutputStream().close();
            } catch (IOException ignored) {
                // the watchdog is gone already
            }
            await(watchdog, 5);
            watchdog = null;
        }
    }

    /**
     * A shell that waits for its stdin (a pipe from this JVM) to close, then SIGKILLs the service if
     * that PID still runs our jar (a recycled PID of some other program is left alone).
     */
    private static Process watch(long pid, String marker) throws IOException {
        String script = "cat >/dev/null; if tr '\\0' ' ' </proc/$0/cmdline 2>/dev/null | grep -qF -- \"$1\"; then"
                + " kill -9 $0; fi";
        return new ProcessBuilder("sh", "-c", script, Long.toString(pid), marker)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static boolean await(Process process, int seconds) {
        try {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
