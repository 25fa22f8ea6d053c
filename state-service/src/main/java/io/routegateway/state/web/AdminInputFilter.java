package io.routegateway.state.web;

import java.util.List;
import java.util.Map;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;

import io.routegateway.core.access.AdminPath;
import io.routegateway.core.text.StorableText;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Path ids and query parameters of every admin call are checked once, after matching and before
 * any resource runs: an id holding a control character, U+0000 or an unpaired surrogate, or longer
 * than {@value Inputs#MAX_ID} characters, is {@code validation.id}; a model key in the path is
 * checked by the model actions ({@code validation.model_key}); any query value so malformed, or
 * longer than {@value Inputs#MAX_QUERY_VALUE} characters, is {@code validation.query}. Nothing such
 * ever reaches a database query, so none of them can be a 500.
 */
public class AdminInputFilter {

    @ServerRequestFilter
    public Response checkPathAndQuery(ContainerRequestContext request) {
        if (!AdminPath.isAdmin(request.getUriInfo().getRequestUri().getRawPath())
                && !AdminPath.isAdmin(request.getUriInfo().getPath())) {
            return null;
        }
        MultivaluedMap<String, String> pathParameters = request.getUriInfo().getPathParameters();
        for (Map.Entry<String, List<String>> parameter : pathParameters.entrySet()) {
            if (parameter.getKey().equals("modelKey")) {
                continue;
            }
            for (String value : parameter.getValue()) {
                if (!StorableText.isSingleLine(value, Inputs.MAX_ID)) {
                    return ApiError.response(
                            400,
                            AdminCodes.ID,
                            "the " + parameter.getKey() + " in the path must be at most " + Inputs.MAX_ID
                                    + " characters without control characters, U+0000 or unpaired surrogates");
                }
            }
        }
        for (Map.Entry<String, List<String>> parameter :
                request.getUriInfo().getQueryParameters().entrySet()) {
            for (String value : parameter.getValue()) {
                if (!StorableText.isSingleLine(value, Inputs.MAX_QUERY_VALUE)) {
                    return ApiError.response(
                            400,
                            AdminCodes.QUERY,
                            "query parameter "
                                    + (StorableText.isSingleLine(parameter.getKey(), 64)
                                            ? parameter.getKey()
                                            : "(unnamed)")
                                    + " must be at most " + Inputs.MAX_QUERY_VALUE
                                    + " characters without control characters, U+0000 or unpaired surrogates");
                }
            }
        }
        return null;
    }
}
