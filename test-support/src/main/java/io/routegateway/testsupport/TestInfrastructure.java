package io.routegateway.testsupport;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jboss.logging.Logger;
import org.testcontainers.DockerClientFactory;

/**
 * Where the tests' PostgreSQL and Kafka come from, chosen at run time by {@value #PROPERTY} (system
 * property) or {@value #ENV} (environment): {@code auto} (the default) uses Testcontainers where a
 * Docker engine answers within {@link #DOCKER_PROBE_TIMEOUT} and the local servers otherwise; {@code
 * testcontainers} requires Docker; {@code local} never asks Docker. The choice itself is the pure
 * {@link InfraSelection}; this class reads the setting and asks the engine.
 */
public final class TestInfrastructure {

    public static final String PROPERTY = InfraSelection.PROPERTY;
    public static final String ENV = "ROUTE_TEST_INFRA";
    static final Duration DOCKER_PROBE_TIMEOUT = Duration.ofSeconds(InfraSelection.DOCKER_PROBE_SECONDS);

    private static final Logger LOG = Logger.getLogger(TestInfrastructure.class);
    private static final Object LOCK = new Object();
    private static Boolean dockerAnswers;

    private TestInfrastructure() {}

    /** The setting of this run: system property first, then environment. */
    public static InfraSelection.Setting setting() {
        String property = System.getProperty(PROPERTY);
        return InfraSelection.Setting.parse(property != null && !property.isBlank() ? property : System.getenv(ENV));
    }

    /** Where this run's PostgreSQL comes from (Docker is asked only when the setting needs it). */
    public static InfraSelection.Source postgresSource() {
        return InfraSelection.choose(setting(), TestInfrastructure::dockerAnswers);
    }

    /** Whether a Docker engine answers; asked once per JVM, given up after {@link #DOCKER_PROBE_TIMEOUT}. */
    public static boolean dockerAnswers() {
        synchronized (LOCK) {
            if (dockerAnswers == null) {
                dockerAnswers = probe(DOCKER_PROBE_TIMEOUT);
                LOG.infof("%s: a Docker engine %s", PROPERTY, dockerAnswers ? "answers" : "does not answer");
            }
            return dockerAnswers;
        }
    }

    private static boolean probe(Duration timeout) {
        FutureTask<Boolean> task =
                new FutureTask<>(() -> DockerClientFactory.instance().isDockerAvailable());
        Thread thread = new Thread(task, "docker-probe");
        thread.setDaemon(true);
        thread.start();
        try {
            return task.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            task.cancel(true);
            return false;
        } catch (ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
