package io.routegateway.state.settings;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.routegateway.core.policy.RuntimeSettings;
import io.routegateway.state.pool.AdminWrites;
import io.routegateway.state.publish.StateOutbox;
import io.routegateway.state.repository.RuntimeSettingEntity;
import io.routegateway.state.repository.RuntimeSettingRepository;
import io.smallrye.mutiny.Uni;

/**
 * Runtime settings: checked by {@link SettingsRules} (route-core's {@link RuntimeSettings}), stored all-or-nothing. Every
 * write queues the new {@code RuntimeSettingsSnapshot} for {@code route.settings} in the same
 * transaction, so the gateways apply the new threshold and affinity settings.
 */
@ApplicationScoped
public class SettingsService {

    private final RuntimeSettingRepository settings;
    private final AdminWrites writes;
    private final StateOutbox outbox;

    SettingsService(RuntimeSettingRepository settings, AdminWrites writes, StateOutbox outbox) {
        this.settings = settings;
        this.writes = writes;
        this.outbox = outbox;
    }

    @WithSession
    public Uni<SettingsView> get() {
        return settings.current().map(SettingsView::of);
    }

    /** Only the fields sent change; one bad field refuses the whole update. */
    public Uni<SettingsView> update(JsonNode patch) {
        SettingsRules.requireObject(patch);
        // the rows are locked first: two concurrent updates apply one after the other, none is lost
        return writes.inTransaction(() -> settings.findAll()
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .flatMap(locked -> settings.current())
                .flatMap(current -> {
                    SettingsRules.Update update = SettingsRules.update(current, patch);
                    RuntimeSettings next = update.next();
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (Map.Entry<String, String> row : update.rows().entrySet()) {
                        chain = chain.flatMap(ok -> settings.findById(row.getKey())
                                .flatMap(existing -> {
                                    if (existing == null) {
                                        return settings.persist(new RuntimeSettingEntity(row.getKey(), row.getValue()))
                                                .replaceWithVoid();
                                    }
                                    existing.value = row.getValue();
                                    return Uni.createFrom().voidItem();
                                }));
                    }
                    return chain.flatMap(ok -> outbox.settingsChanged(next)).map(version -> SettingsView.of(next));
                }));
    }
}
