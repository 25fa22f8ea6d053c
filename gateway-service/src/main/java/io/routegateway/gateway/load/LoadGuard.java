package io.routegateway.gateway.load;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.routegateway.core.load.LoadShedding;
import io.routegateway.core.load.LoadShedding.Caps;
import io.routegateway.core.load.LoadShedding.Shed;
import io.routegateway.gateway.config.GatewayConfig;

/**
 * This replica's count of forwarded requests in progress and of the body bytes they hold, and the
 * door that sheds a request past {@code gateway.load.*} (route-core {@link LoadShedding}). Entering
 * takes the slot and the bytes at once and gives them back if the request is shed, so concurrent
 * entrants never see the same free slot. Metrics: {@code gateway_load_requests}, {@code
 * gateway_load_body_bytes} and {@code gateway_load_shed_total{reason}}.
 */
@Singleton
public class LoadGuard {

    private final Caps caps;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicLong bodyBytes = new AtomicLong();
    private final Map<Shed, Counter> shed = new EnumMap<>(Shed.class);

    @Inject
    LoadGuard(GatewayConfig config, MeterRegistry registry) {
        this(caps(config.load()), registry);
    }

    public LoadGuard(Caps caps, MeterRegistry registry) {
        this.caps = caps;
        Gauge.builder("gateway.load.requests", requests, AtomicInteger::get)
                .description("Forwarded requests in progress on this replica (a stream until it ends)")
                .register(registry);
        Gauge.builder("gateway.load.body_bytes", bodyBytes, AtomicLong::get)
                .description("Bytes of request bodies held by the requests in progress")
                .baseUnit("bytes")
                .register(registry);
        for (Shed reason : Shed.values()) {
            shed.put(
                    reason,
                    Counter.builder("gateway.load.shed")
                            .description("Requests shed with 503 gateway_overloaded, by the cap they met")
                            .tag("reason", reason.label())
                            .register(registry));
        }
    }

    /** The caps in force: the configured byte budget, or an eighth of the heap (a 32 MB body costs about 190 MB while it is parsed: bench/body_memory.sh). */
    static Caps caps(GatewayConfig.Load load) {
        long bytes = load.maxInFlightBodyBytes()
                .map(size -> size.asLongValue())
                .orElse(Runtime.getRuntime().maxMemory() / 8);
        return new Caps(load.maxConcurrentRequests(), Math.max(1, bytes));
    }

    public Caps caps() {
        return caps;
    }

    /**
     * Takes a slot and {@code declaredBodyBytes} for one request, or sheds it.
     *
     * @return null when it entered (call {@link #leave} once it ends), else why it was shed
     */
    public Shed enter(long declaredBodyBytes) {
        long declared = Math.max(0, declaredBodyBytes);
        int before = requests.getAndIncrement();
        long held = bodyBytes.getAndAdd(declared);
        Shed reason = LoadShedding.decide(caps, before, held, declared);
        if (reason != null) {
            requests.decrementAndGet();
            bodyBytes.addAndGet(-declared);
            shed.get(reason).increment();
        }
        return reason;
    }

    /** A request that entered with an undeclared body length holds its body once read. */
    public void holds(long moreBodyBytes) {
        bodyBytes.addAndGet(Math.max(0, moreBodyBytes));
    }

    /** The request ended: its slot and its body bytes are free. */
    public void leave(long bodyBytesHeld) {
        requests.decrementAndGet();
        bodyBytes.addAndGet(-Math.max(0, bodyBytesHeld));
    }

    public int requestsInProgress() {
        return requests.get();
    }

    public long bodyBytesHeld() {
        return bodyBytes.get();
    }
}
