package io.routegateway.state.web;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.routegateway.core.admin.ErrorBody;

/**
 * Admin API error answers in the services' one error body, route-core's {@link ErrorBody}: {@code
 * {"error":{"code":"…","message":"…","type":"…"}}}, the type from the status.
 */
public final class ApiError {

    private ApiError() {}

    public static Response response(int status, String code, String message) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorBody.of(status, code, message))
                .build();
    }
}
