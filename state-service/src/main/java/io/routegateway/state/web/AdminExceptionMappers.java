package io.routegateway.state.web;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.routegateway.core.policy.ValidationException;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Turns every failure into the one error body. Client errors are not logged; their messages never
 * echo request content (Jackson's own messages can quote input, so they are replaced).
 */
public class AdminExceptionMappers {

    private static final Logger LOG = Logger.getLogger(AdminExceptionMappers.class);

    @ServerExceptionMapper
    public Response admin(AdminException e) {
        return respond(e);
    }

    @ServerExceptionMapper
    public Response validation(ValidationException e) {
        return ApiError.response(400, e.code(), e.getMessage());
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        return jsonError(e);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        if (e.getCause() instanceof JsonProcessingException json) {
            return jsonError(json);
        }
        int status = e.getResponse().getStatus();
        return ApiError.response(
                status,
                webCode(status),
                Response.Status.fromStatusCode(status) == null
                        ? "HTTP " + status
                        : Response.Status.fromStatusCode(status).getReasonPhrase());
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        LOG.error("admin API request failed", e);
        return ApiError.response(500, AdminCodes.INTERNAL, "internal error; see the state-service log");
    }

    static Response jsonError(JsonProcessingException e) {
        return respond(AdminException.fromJson(e));
    }

    static Response respond(AdminException e) {
        return ApiError.response(e.status(), e.code(), e.getMessage());
    }

    private static String webCode(int status) {
        switch (status) {
            case 400:
                return "bad_request";
            case 401:
                return AdminCodes.UNAUTHORIZED;
            case 404:
                return AdminCodes.NOT_FOUND;
            case 405:
                return "method_not_allowed";
            case 406:
                return "not_acceptable";
            case 415:
                return "unsupported_media_type";
            default:
                return status >= 500 ? AdminCodes.INTERNAL : "http_" + status;
        }
    }
}
