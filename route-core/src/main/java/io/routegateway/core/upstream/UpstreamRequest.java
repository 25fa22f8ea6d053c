package io.routegateway.core.upstream;

import java.util.List;
import java.util.Map;

/**
 * Everything needed to send one upstream request, decided before any I/O.
 *
 * @param url absolute URL
 * @param headers headers to send (auth included; client auth never copied)
 * @param body request body, already rewritten to the upstream model
 * @param stream whether the client asked for a stream
 * @param upstreamModel the model name sent upstream ({@code [1m]} stripped)
 */
public record UpstreamRequest(
        String method,
        String url,
        List<Map.Entry<String, String>> headers,
        byte[] body,
        boolean stream,
        String upstreamModel) {

    public UpstreamRequest {
        headers = List.copyOf(headers);
    }

    /** The first header value with that name (case-insensitive), or null. */
    public String header(String name) {
        for (Map.Entry<String, String> header : headers) {
            if (header.getKey().equalsIgnoreCase(name)) {
                return header.getValue();
            }
        }
        return null;
    }
}
