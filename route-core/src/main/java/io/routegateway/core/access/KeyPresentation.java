package io.routegateway.core.access;

import io.routegateway.core.model.Protocol;

/**
 * Where a client may present its AccessKey: {@code Authorization: Bearer}, {@code x-api-key} or
 * {@code x-goog-api-key} on every route, and {@code ?key=} on Gemini's routes only, where Gemini's
 * SDKs and REST examples put it. Elsewhere a key in the URL only ends up in access logs, proxies'
 * and browsers' histories, so it is not taken.
 */
public final class KeyPresentation {

    /** What a client that sent {@code ?key=} on another protocol's route is told (with 401). */
    public static final String QUERY_KEY_ON_GEMINI_ONLY = "an AccessKey in the URL (?key=) is taken on Gemini's"
            + " routes only; send it as Authorization: Bearer, x-api-key or x-goog-api-key";

    private KeyPresentation() {}

    /** Whether a key in the query string is taken on a route of {@code protocol}. */
    public static boolean takesQueryKey(Protocol protocol) {
        return protocol == Protocol.GEMINI;
    }
}
