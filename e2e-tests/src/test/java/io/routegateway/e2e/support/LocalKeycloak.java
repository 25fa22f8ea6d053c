package io.routegateway.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The project's local Keycloak (deploy/local/keycloak.sh: Maven Central's distribution, the shipped
 * realm {@code route-gateway}) for the single sign-on browser tests. {@code -Dkeycloak.test.url}
 * names one already starting (deploy/local/test.sh starts it in the background when the e2e module
 * runs, so its slow start overlaps the unit tests): it is awaited. Without it one is started here on
 * a free port and stopped by {@link #close()}. Either way a Keycloak that does not answer is an
 * error, never a skipped test.
 */
public final class LocalKeycloak implements AutoCloseable {

    public static final String REALM = "route-gateway";
    /** A cold start on a loaded 2-core machine: the build (once per machine) and the start. */
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(10);

    private final String baseUrl;
    private final Path root;
    private final int startedPort;

    private LocalKeycloak(String baseUrl, Path root, int startedPort) {
        this.baseUrl = baseUrl;
        this.root = root;
        this.startedPort = startedPort;
    }

    /** The Keycloak of this run: the one test.sh started, else a new one. */
    public static LocalKeycloak obtain(Path root, Path logDir) {
        String given = System.getProperty("keycloak.test.url", "").trim();
        if (!given.isEmpty()) {
            LocalKeycloak keycloak = new LocalKeycloak(given.replaceAll("/+$", ""), root, -1);
            keycloak.awaitReady();
            return keycloak;
        }
        int port = freePortPair();
        Path script = root.resolve("deploy/local/keycloak.sh");
        try {
            Files.createDirectories(logDir);
            Path log = logDir.resolve("keycloak-start-" + port + ".log");
            Process start = new ProcessBuilder(script.toString(), "start", "--port", Integer.toString(port))
                    .directory(root.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!start.waitFor(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                start.destroy();
                throw new AssertionError(
                        "deploy/local/keycloak.sh start did not finish in " + READY_TIMEOUT + " (" + log + ")");
            }
            LocalKeycloak keycloak = new LocalKeycloak("http://127.0.0.1:" + port, root, port);
            if (start.exitValue() != 0) {
                keycloak.close();
                throw new AssertionError(
                        "Keycloak did not start (exit " + start.exitValue() + "): " + Files.readString(log));
            }
            keycloak.awaitReady();
            return keycloak;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The realm's issuer, as its tokens name it. */
    public String issuer() {
        return baseUrl + "/realms/" + REALM;
    }

    /** state-service's settings that trust this issuer, as deploy/local/run.sh sets them. */
    public Map<String, String> stateEnvironment() {
        return Map.of(
                "STATE_OIDC_ENABLED", "true",
                "STATE_OIDC_ISSUER", issuer(),
                "STATE_OIDC_CLIENT_ID", "route-gateway",
                "STATE_OIDC_CONSOLE_CLIENT_ID", "route-console",
                "STATE_OIDC_TEAM_GROUP_PREFIX", "team:");
    }

    private void awaitReady() {
        String discovery = issuer() + "/.well-known/openid-configuration";
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        String last = "no answer";
        while (Instant.now().isBefore(deadline)) {
            try {
                Http.Response response = Http.send("GET", discovery, Map.of(), null, Duration.ofSeconds(10));
                if (response.status() == 200) {
                    return;
                }
                last = response.status() + " " + response.body();
            } catch (RuntimeException e) {
                last = e.getMessage();
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("Keycloak at " + baseUrl + " not ready after " + READY_TIMEOUT + ": " + last);
    }

    /** Stops the Keycloak started here (by its PID, through the script); one given by URL is left running. */
    @Override
    public void close() {
        if (startedPort < 0) {
            return;
        }
        try {
            new ProcessBuilder(
                            root.resolve("deploy/local/keycloak.sh").toString(),
                            "stop",
                            "--port",
                            Integer.toString(startedPort))
                    .directory(root.toFile())
                    .inheritIO()
                    .start()
                    .waitFor(90, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A free port whose successor is free too (Keycloak's management interface takes port + 1). */
    private static int freePortPair() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = RouteSystem.freePort();
            if (port < 65000 && free(port + 1)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port pair");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
