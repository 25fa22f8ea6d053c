package io.routegateway.state.support;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;

/**
 * The tests' span exporter: Quarkus's default {@code cdi} trace exporter sends the spans to every
 * {@code SpanExporter} bean, so a test that turns the SDK on ({@code OutcomeTracingTests}) reads them
 * here. Unused while the SDK is off (every other test).
 */
@Singleton
public class InMemorySpans {

    @Produces
    @Singleton
    InMemorySpanExporter inMemorySpanExporter() {
        return InMemorySpanExporter.create();
    }
}
