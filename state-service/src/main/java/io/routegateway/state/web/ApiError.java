package io.routegateway.state.web;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The one error body of the admin API: {@code {"error":{"code":"…","message":"…"}}}. */
public record ApiError(Detail error) {

    public record Detail(String code, String message) {}

    public static ApiError of(String code, String message) {
        return new ApiError(new Detail(code, message));
    }

    public static Response response(int status, String code, String message) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(of(code, message))
                .build();
    }
}
