package io.routegateway.e2e.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;

/**
 * Client traffic for the fault tests: a few threads, each pausing a fixed time after every buffered
 * chat request (default {@value #PAUSE_MILLIS} ms), round-robin over the given models, until stopped. Steady rather
 * than flat out, so state-service keeps up on a small machine and a test measures the fault, not a
 * backlog. Every answer other than 200 is a client-visible error and is kept (the first 20) for the
 * failure message.
 */
public final class Load implements AutoCloseable {

    /** Pause after each request of one client: about 10 requests per second per client. */
    static final long PAUSE_MILLIS = 100;

    private final List<Thread> clients = new ArrayList<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final ConcurrentLinkedQueue<String> errorSamples = new ConcurrentLinkedQueue<>();
    private volatile boolean running = true;

    private Load(GatewayClient gateway, String accessKey, List<String> models, int clientCount, long pauseMillis) {
        for (int i = 0; i < clientCount; i++) {
            int offset = i;
            Thread client = new Thread(() -> run(gateway, accessKey, models, offset, pauseMillis), "e2e-load-" + i);
            client.setDaemon(true);
            clients.add(client);
        }
        clients.forEach(Thread::start);
    }

    public static Load start(GatewayClient gateway, String accessKey, List<String> models, int clients) {
        return new Load(gateway, accessKey, models, clients, PAUSE_MILLIS);
    }

    public static Load start(
            GatewayClient gateway, String accessKey, List<String> models, int clients, long pauseMillis) {
        return new Load(gateway, accessKey, models, clients, pauseMillis);
    }

    public long requests() {
        return requests.get();
    }

    /** Waits (at most 60 s) until {@code count} more requests have been answered than now. */
    public void awaitMore(int count) {
        long target = requests.get() + count;
        await(count + " more requests").atMost(Duration.ofSeconds(60)).until(() -> requests.get() >= target);
    }

    public long errors() {
        return errors.get();
    }

    public List<String> errorSamples() {
        return List.copyOf(errorSamples);
    }

    /** Stops sending and waits for the requests in flight. */
    public void stop() {
        running = false;
        for (Thread client : clients) {
            try {
                client.join(70_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void run(GatewayClient gateway, String accessKey, List<String> models, int offset, long pauseMillis) {
        int next = offset;
        while (running) {
            String model = models.get(next++ % models.size());
            String outcome;
            try {
                Http.Response response = gateway.chat(accessKey, model);
                outcome = response.status() == 200 ? null : response.status() + " " + response.body();
            } catch (RuntimeException e) {
                outcome = e.toString();
            }
            requests.incrementAndGet();
            if (outcome != null) {
                errors.incrementAndGet();
                if (errorSamples.size() < 20) {
                    errorSamples.add(outcome);
                }
            }
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
