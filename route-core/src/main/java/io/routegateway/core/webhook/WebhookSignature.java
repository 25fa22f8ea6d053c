package io.routegateway.core.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of a webhook delivery: {@code X-Route-Signature: sha256=<hex>}, the lower-case hex
 * HMAC-SHA256, keyed with the endpoint's secret (UTF-8), of {@code <timestamp>.<body>} where the
 * timestamp is the {@code X-Route-Timestamp} header (epoch seconds) and the body the exact bytes
 * sent. A receiver recomputes it, compares in constant time and refuses old timestamps (replays).
 */
public final class WebhookSignature {

    public static final String SIGNATURE_HEADER = "X-Route-Signature";
    public static final String TIMESTAMP_HEADER = "X-Route-Timestamp";
    public static final String DELIVERY_ID_HEADER = "X-Route-Delivery-Id";
    public static final String EVENT_HEADER = "X-Route-Event";

    private WebhookSignature() {}

    /** {@code sha256=<hex>} of {@code timestamp + "." + body}. */
    public static String sign(String secret, long epochSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update(Long.toString(epochSeconds).getBytes(StandardCharsets.US_ASCII));
            mac.update((byte) '.');
            mac.update(body);
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** What a receiver does: recompute and compare in constant time. */
    public static boolean verify(String secret, long epochSeconds, byte[] body, String header) {
        if (header == null) {
            return false;
        }
        return MessageDigest.isEqual(
                sign(secret, epochSeconds, body).getBytes(StandardCharsets.US_ASCII),
                header.getBytes(StandardCharsets.US_ASCII));
    }
}
