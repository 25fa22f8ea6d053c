package io.routegateway.state.apitoken;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.identity.AuditedResource;
import io.smallrye.mutiny.Uni;

/** The audit trail's view of api-tokens before and after an admin write. */
@ApplicationScoped
class ApiTokenAudit implements AuditedResource {

    private final ApiTokenAdminService service;

    ApiTokenAudit(ApiTokenAdminService service) {
        this.service = service;
    }

    @Override
    public String type() {
        return "api-tokens";
    }

    @Override
    public Uni<Object> current(String id) {
        return service.current(id).map(view -> (Object) view);
    }
}
