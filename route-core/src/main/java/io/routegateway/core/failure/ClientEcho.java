package io.routegateway.core.failure;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What the client controlled in one upstream request: the body as sent and the URL (the Gemini
 * model is in the path). Upstreams echo client input in their errors ("The model `X` does not
 * exist", "X: Extra inputs are not permitted", {@code Unknown name "X"}), so a permanent or quota
 * marker that the client also sent is not evidence about the credential: it may be the echo.
 *
 * <p>Cheap by construction: nothing is decoded until a marker has matched an upstream error field
 * (rare), and then the text is lower-cased once and kept.
 */
public final class ClientEcho {

    /** An attempt whose request carried no client text. */
    public static final ClientEcho NONE = new ClientEcho(null, null);

    private final byte[] body;
    private final String url;
    private String lowered;
    private String normalized;

    private ClientEcho(byte[] body, String url) {
        this.body = body;
        this.url = url;
    }

    /**
     * @param body the request body as sent upstream, may be null; the gateway always serializes it
     *     itself, so JSON escapes (a {@code \\u} sequence) are already resolved to the text an
     *     upstream would quote
     * @param url the request URL as sent upstream, may be null
     */
    public static ClientEcho of(byte[] body, String url) {
        return body == null && url == null ? NONE : new ClientEcho(body, url);
    }

    /** Whether the request contained {@code marker}, case-insensitively (markers are lower-case). */
    public boolean sent(String marker) {
        return marker != null && lowered().contains(marker.toLowerCase(Locale.ROOT));
    }

    /**
     * Whether the request contained {@code normalizedMarker} after the normalization of {@link
     * QuotaExhaustion#normalizeCode}: a client may spell {@code Insufficient-Quota} and be echoed as
     * a code.
     */
    public boolean sentCode(String normalizedMarker) {
        if (normalizedMarker == null) {
            return false;
        }
        if (normalized == null) {
            normalized = QuotaExhaustion.normalizeCode(lowered());
        }
        return normalized.contains(normalizedMarker);
    }

    private String lowered() {
        if (lowered == null) {
            StringBuilder text = new StringBuilder();
            if (url != null) {
                // the upstream quotes the path decoded ("models/X is not found")
                text.append(url).append('\n').append(decoded(url)).append('\n');
            }
            if (body != null) {
                text.append(new String(body, StandardCharsets.UTF_8));
            }
            lowered = text.toString().toLowerCase(Locale.ROOT);
        }
        return lowered;
    }

    private static String decoded(String url) {
        try {
            return URLDecoder.decode(url, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return url;
        }
    }
}
