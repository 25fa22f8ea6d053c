package io.routegateway.gateway.trace;

import jakarta.inject.Singleton;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Gemini clients may send their access key as the query parameter {@code key} ({@code
 * ?key=rk-…}), and Quarkus's HTTP server span records the query ({@code url.query}): this span
 * processor, which Quarkus adds to the tracer provider as a CDI bean, replaces the parameter's value
 * with {@code REDACTED} as each span starts, before any exporter can see it.
 */
@Singleton
public class QueryKeyRedaction implements SpanProcessor {

    static final AttributeKey<String> URL_QUERY = AttributeKey.stringKey("url.query");
    static final AttributeKey<String> URL_FULL = AttributeKey.stringKey("url.full");
    static final String REDACTED = "REDACTED";

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
        String query = span.getAttribute(URL_QUERY);
        if (query != null) {
            String redacted = redact(query);
            if (!redacted.equals(query)) {
                span.setAttribute(URL_QUERY, redacted);
            }
        }
        String full = span.getAttribute(URL_FULL);
        if (full != null) {
            int q = full.indexOf('?');
            if (q >= 0) {
                String redacted = full.substring(0, q + 1) + redact(full.substring(q + 1));
                if (!redacted.equals(full)) {
                    span.setAttribute(URL_FULL, redacted);
                }
            }
        }
    }

    @Override
    public boolean isStartRequired() {
        return true;
    }

    @Override
    public void onEnd(ReadableSpan span) {}

    @Override
    public boolean isEndRequired() {
        return false;
    }

    /** The query with the value of every {@code key} parameter (any case) replaced. */
    static String redact(String query) {
        if (query.isEmpty()) {
            return query;
        }
        StringBuilder out = new StringBuilder(query.length());
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            String pair = query.substring(start, end);
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            if (out.length() > 0 || start > 0) {
                out.append('&');
            }
            if (eq >= 0 && name.equalsIgnoreCase("key")) {
                out.append(name).append('=').append(REDACTED);
            } else {
                out.append(pair);
            }
            start = end + 1;
        }
        return out.toString();
    }
}
