package io.routegateway.state.settings;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.identity.AuditedResource;
import io.smallrye.mutiny.Uni;

/** The audit trail's view of settings before and after an admin write. */
@ApplicationScoped
class SettingsAudit implements AuditedResource {

    private final SettingsService service;

    SettingsAudit(SettingsService service) {
        this.service = service;
    }

    @Override
    public String type() {
        return "settings";
    }

    @Override
    public Uni<Object> current(String id) {
        return service.get().map(view -> (Object) view);
    }
}
