package io.routegateway.state.group;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.identity.AuditedResource;
import io.smallrye.mutiny.Uni;

/** The audit trail's view of groups before and after an admin write. */
@ApplicationScoped
class GroupAudit implements AuditedResource {

    private final GroupAdminService service;

    GroupAudit(GroupAdminService service) {
        this.service = service;
    }

    @Override
    public String type() {
        return "groups";
    }

    @Override
    public Uni<Object> current(String id) {
        return service.get(id).map(view -> (Object) view);
    }
}
