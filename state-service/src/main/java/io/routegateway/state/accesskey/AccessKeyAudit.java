package io.routegateway.state.accesskey;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.identity.AuditedResource;
import io.smallrye.mutiny.Uni;

/** The audit trail's view of access-keys before and after an admin write. */
@ApplicationScoped
class AccessKeyAudit implements AuditedResource {

    private final AccessKeyAdminService service;

    AccessKeyAudit(AccessKeyAdminService service) {
        this.service = service;
    }

    @Override
    public String type() {
        return "access-keys";
    }

    @Override
    public Uni<Object> current(String id) {
        return service.get(id).map(view -> (Object) view);
    }
}
