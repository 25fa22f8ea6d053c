package io.routegateway.gateway.support;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import io.routegateway.common.upstream.UpstreamResolver;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The upstream client's resolver in the tests: a local stub for the names a test maps ({@link
 * #map}), the Vert.x instance's resolver for every other name (so the other tests are unchanged).
 * Replaces service-common's default resolver bean in this module's tests.
 */
@Singleton
public class StubResolver implements UpstreamResolver {

    private static final Map<String, InetAddress> NAMES = new ConcurrentHashMap<>();

    private final UpstreamResolver real;

    StubResolver(Vertx vertx) {
        this.real = UpstreamResolver.of(vertx);
    }

    /** From now on {@code host} resolves to {@code address} (a literal). */
    public static void map(String host, String address) {
        try {
            NAMES.put(host.toLowerCase(Locale.ROOT), InetAddress.getByName(address));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public Future<InetAddress> resolve(String host) {
        InetAddress mapped = NAMES.get(host.toLowerCase(Locale.ROOT));
        return mapped != null ? Future.succeededFuture(mapped) : real.resolve(host);
    }
}
