package io.routegateway.core.quota;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Read access to an upstream response's headers, case-insensitive by name, without tying
 * route-core to an HTTP library: the gateway passes its client's header map.
 */
@FunctionalInterface
public interface ResponseHeaders {

    /** A response without headers. */
    ResponseHeaders NONE = name -> null;

    /** The first value of the header {@code name} (any case), or null. */
    String get(String name);

    /** Headers from a plain map; names are matched case-insensitively. */
    static ResponseHeaders of(Map<String, String> headers) {
        Map<String, String> lower = new TreeMap<>();
        headers.forEach((name, value) -> lower.putIfAbsent(name.toLowerCase(Locale.ROOT), value));
        return name -> lower.get(name.toLowerCase(Locale.ROOT));
    }
}
