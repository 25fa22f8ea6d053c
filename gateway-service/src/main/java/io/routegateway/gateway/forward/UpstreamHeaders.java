package io.routegateway.gateway.forward;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;

/** The upstream headers a client may see: its content type and request ids, nothing else. */
final class UpstreamHeaders {

    private UpstreamHeaders() {}

    static void copy(MultiMap from, HttpServerResponse to, String defaultContentType) {
        String contentType = from.get("content-type");
        to.putHeader("content-type", contentType == null ? defaultContentType : contentType);
        copyIfPresent(from, to, "request-id");
        copyIfPresent(from, to, "x-request-id");
    }

    private static void copyIfPresent(MultiMap from, HttpServerResponse to, String name) {
        String value = from.get(name);
        if (value != null) {
            to.putHeader(name, value);
        }
    }
}
