package io.routegateway.recovery.rest;

import jakarta.ws.rs.core.Response;

import io.routegateway.core.policy.ValidationException;
import io.routegateway.recovery.probe.SecretUnreadableException;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Errors of the recovery API, in the gateway's one error shape {@code {"error":{"code","message","type"}}}. */
class ErrorMappers {

    /** The error body. */
    record ErrorBody(Detail error) {

        record Detail(String code, String message, String type) {}

        static RestResponse<ErrorBody> of(Response.Status status, String code, String message, String type) {
            return RestResponse.status(status, new ErrorBody(new Detail(code, message, type)));
        }
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> notFound(CredentialNotFoundException e) {
        return ErrorBody.of(Response.Status.NOT_FOUND, CredentialNotFoundException.CODE, e.getMessage(), "not_found");
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> rejected(ValidationException e) {
        return ErrorBody.of(Response.Status.BAD_REQUEST, e.code(), e.getMessage(), "invalid_request");
    }

    @ServerExceptionMapper
    RestResponse<ErrorBody> secretUnreadable(SecretUnreadableException e) {
        return ErrorBody.of(
                Response.Status.INTERNAL_SERVER_ERROR, SecretUnreadableException.CODE, e.getMessage(), "server_error");
    }
}
