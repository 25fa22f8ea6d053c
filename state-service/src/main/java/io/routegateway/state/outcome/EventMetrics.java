package io.routegateway.state.outcome;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Meters of event application: {@code state.events.applied} (tag {@code result}: {@code changed} or
 * {@code unchanged}), {@code state.events.duplicate}, {@code state.events.dead_lettered} (tag {@code
 * reason}), the {@code state.events.apply} timer (one transaction, lock to commit), {@code
 * state.usage.records} / {@code state.usage.dead_lettered} (tag {@code reason}) for usage records, and
 * {@code state.records.sanitised} (tag {@code topic}) for records stored after unstorable text in
 * them was replaced.
 */
@ApplicationScoped
public class EventMetrics {

    static final String APPLIED = "state.events.applied";
    static final String DUPLICATE = "state.events.duplicate";
    static final String STALE = "state.events.stale";
    static final String DEAD_LETTERED = "state.events.dead_lettered";
    static final String APPLY = "state.events.apply";
    static final String USAGE_RECORDS = "state.usage.records";
    public static final String USAGE_DEAD_LETTERED = "state.usage.dead_lettered";
    static final String SANITISED = "state.records.sanitised";

    private final MeterRegistry registry;
    private final Counter changed;
    private final Counter unchanged;
    private final Counter duplicate;
    private final Counter noOp;
    private final Counter stale;
    private final Timer apply;
    private final Counter usageRecords;

    public EventMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.changed = Counter.builder(APPLIED)
                .description("Outcome events applied")
                .tag("result", "changed")
                .register(registry);
        this.unchanged = Counter.builder(APPLIED)
                .description("Outcome events applied")
                .tag("result", "unchanged")
                .register(registry);
        this.noOp = Counter.builder(APPLIED)
                .description("Outcome events applied")
                .tag("result", "noop")
                .register(registry);
        this.stale = Counter.builder(STALE)
                .description("Successes delivered again after a newer change was applied, ignored")
                .register(registry);
        this.duplicate = Counter.builder(DUPLICATE)
                .description("Redelivered outcome events that changed nothing")
                .register(registry);
        this.apply = Timer.builder(APPLY)
                .description("Applying one outcome event: one database transaction")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.usageRecords = Counter.builder(USAGE_RECORDS)
                .description("Usage records offered to request_logs (duplicates included)")
                .register(registry);
    }

    Timer.Sample startApply() {
        return Timer.start(registry);
    }

    void applied(Timer.Sample sample, ApplyResult result) {
        sample.stop(apply);
        switch (result.kind()) {
            case CHANGED -> changed.increment();
            case UNCHANGED -> unchanged.increment();
            case DUPLICATE -> duplicate.increment();
            case STALE -> stale.increment();
            case NO_OP -> noOp.increment();
        }
    }

    /** A success acknowledged by the fast path: one read, nothing written, not timed as a transaction. */
    void noOp() {
        noOp.increment();
    }

    void deadLettered(String reason) {
        Counter.builder(DEAD_LETTERED)
                .description("Outcome messages sent to the dead-letter topic")
                .tag("reason", reason)
                .register(registry)
                .increment();
    }

    public void usageRecords(int count) {
        usageRecords.increment(count);
    }

    public void usageDeadLettered(String reason) {
        Counter.builder(USAGE_DEAD_LETTERED)
                .description("Usage records sent to the dead-letter topic")
                .tag("reason", reason)
                .register(registry)
                .increment();
    }

    public void sanitised(String topic) {
        Counter.builder(SANITISED)
                .description("Records stored after their unstorable text was replaced")
                .tag("topic", topic)
                .register(registry)
                .increment();
    }
}
