package io.routegateway.state.credential;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.identity.AuditedResource;
import io.smallrye.mutiny.Uni;

/** The audit trail's view of credentials before and after an admin write. */
@ApplicationScoped
class CredentialAudit implements AuditedResource {

    private final CredentialAdminService service;

    CredentialAudit(CredentialAdminService service) {
        this.service = service;
    }

    @Override
    public String type() {
        return "credentials";
    }

    @Override
    public Uni<Object> current(String id) {
        return service.get(id).map(view -> (Object) view);
    }
}
