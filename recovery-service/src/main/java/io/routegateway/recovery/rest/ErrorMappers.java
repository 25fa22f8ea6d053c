package io.routegateway.recovery.rest;

import jakarta.ws.rs.core.Response;

import io.routegateway.core.admin.ErrorBody;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.recovery.probe.SecretUnreadableException;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Errors of the recovery API, in the services' one error body {@code {"error":{"code","message","type"}}}. */
class ErrorMappers {

    static RestResponse<ErrorBody> error(Response.Status status, String code, String message) {
        return RestResponse.status(status, ErrorBody.of(status.getStatusCode(), code, message));
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> notFound(CredentialNotFoundException e) {
        return error(Response.Status.NOT_FOUND, CredentialNotFoundException.CODE, e.getMessage());
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> rejected(ValidationException e) {
        return error(Response.Status.BAD_REQUEST, e.code(), e.getMessage());
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> secretUnreadable(SecretUnreadableException e) {
        return error(Response.Status.INTERNAL_SERVER_ERROR, SecretUnreadableException.CODE, e.getMessage());
    }
}
