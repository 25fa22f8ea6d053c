package io.routegateway.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Plain HTTP/1.1 calls with JSON bodies, as a client or an operator would make them. */
public final class Http {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SERVED_BY = Pattern.compile("demo account (\\S+) via");
    private static final Pattern DELTA = Pattern.compile("\"(?:content|text)\":\"([^\"]*)\"");

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private Http() {}

    /** One answer: status, body text and headers. */
    public record Response(int status, String body, Map<String, List<String>> headers) {

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (status " + status + "): " + body, e);
            }
        }

        /** The gateway's code in an error body ({@code error.code}, Gemini's {@code error.details[0].reason}), null otherwise. */
        public String errorCode() {
            try {
                JsonNode error = JSON.readTree(body).path("error");
                JsonNode code = error.path("code");
                if (code.isTextual()) {
                    return code.asText();
                }
                // Gemini's envelope: code is the status, the gateway's code is ErrorInfo.reason
                JsonNode reason = error.path("details").path(0).path("reason");
                return reason.isTextual() ? reason.asText() : null;
            } catch (IOException e) {
                return null;
            }
        }

        /**
         * The demo upstream account whose answer this is (its text names it, up to 16 characters),
         * null if none; a name cut inside a key's tail ({@code relay-1234~e}, see {@link
         * Pool#secretOf}) is the account before the tilde.
         */
        public String servedBy() {
            Matcher matcher = SERVED_BY.matcher(body);
            if (matcher.find()) {
                return beforeTilde(matcher.group(1));
            }
            // a streamed answer arrives word by word: join the deltas first
            StringBuilder text = new StringBuilder();
            Matcher delta = DELTA.matcher(body);
            while (delta.find()) {
                text.append(delta.group(1));
            }
            matcher = SERVED_BY.matcher(text);
            return matcher.find() ? beforeTilde(matcher.group(1)) : null;
        }

        private static String beforeTilde(String name) {
            int tilde = name.indexOf('~');
            return tilde > 0 ? name.substring(0, tilde) : name;
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    public static Response send(String method, String url, Map<String, String> headers, Object body) {
        return send(method, url, headers, body, Duration.ofSeconds(60));
    }

    public static Response send(String method, String url, Map<String, String> headers, Object body, Duration timeout) {
        try {
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(URI.create(url)).timeout(timeout);
            headers.forEach(request::header);
            if (body == null) {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                String text = body instanceof String s ? s : JSON.writeValueAsString(body);
                request.header("content-type", "application/json");
                request.method(method, HttpRequest.BodyPublishers.ofString(text));
            }
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(
                    response.statusCode(), response.body(), response.headers().map());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + url + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
