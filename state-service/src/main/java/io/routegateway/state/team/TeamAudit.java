package io.routegateway.state.team;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.identity.AuditedResource;
import io.smallrye.mutiny.Uni;

/** The audit trail's view of teams before and after an admin write. */
@ApplicationScoped
class TeamAudit implements AuditedResource {

    private final TeamAdminService service;

    TeamAudit(TeamAdminService service) {
        this.service = service;
    }

    @Override
    public String type() {
        return "teams";
    }

    @Override
    public Uni<Object> current(String id) {
        return service.get(id).map(view -> (Object) view);
    }
}
