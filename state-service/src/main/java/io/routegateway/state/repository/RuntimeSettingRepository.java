package io.routegateway.state.repository;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.routegateway.core.policy.RuntimeSettings;
import io.smallrye.mutiny.Uni;

/** {@code runtime_settings}. */
@ApplicationScoped
public class RuntimeSettingRepository implements PanacheRepositoryBase<RuntimeSettingEntity, String> {

    /** Every stored setting, read forgivingly (a bad row keeps its default). */
    public Uni<RuntimeSettings> current() {
        return listAll().map(RuntimeSettingRepository::settings);
    }

    static RuntimeSettings settings(List<RuntimeSettingEntity> rows) {
        Map<String, String> stored = new HashMap<>();
        for (RuntimeSettingEntity row : rows) {
            stored.put(row.key, row.value);
        }
        return RuntimeSettings.fromStored(stored);
    }
}
