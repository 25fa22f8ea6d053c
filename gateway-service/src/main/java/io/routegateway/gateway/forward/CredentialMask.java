package io.routegateway.gateway.forward;

import java.nio.charset.StandardCharsets;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.failure.SecretMask;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.secretmask.SecretMatcher;
import io.routegateway.core.secretmask.StreamMask;
import io.vertx.core.buffer.Buffer;

/**
 * Upstream text quoting the selected credential's secret or base URL never reaches an event, a row
 * or the client: an upstream quoting the URL it was called on names an internal host. The secret is
 * masked in every encoding route-core's {@link SecretMatcher} knows, in error answers, successful
 * answers and committed streams alike ({@link StreamMask}).
 */
final class CredentialMask {

    private final SecretCache secrets;
    private final CredentialSnapshot credential;
    /** Built on first use: most answers are scanned once, some never. */
    private SecretMatcher bytesMatcher;

    CredentialMask(SecretCache secrets, CredentialSnapshot credential) {
        this.secrets = secrets;
        this.credential = credential;
    }

    /** {@code verdict} with the secret masked in its message and body. */
    Verdict verdict(Verdict verdict) {
        if (!verdict.isFailure()) {
            return verdict;
        }
        try {
            return SecretMask.apply(verdict, secrets.secretOf(credential));
        } catch (RuntimeException unopenable) {
            return verdict; // nothing was sent with a secret that does not open
        }
    }

    /** A client-side error body as the upstream sent it, but for the secret and the base URL. */
    Buffer body(Buffer body) {
        String text = body.toString(StandardCharsets.UTF_8);
        String masked = baseUrl(text);
        try {
            masked = SecretMask.apply(masked, secrets.secretOf(credential));
        } catch (RuntimeException unopenable) {
            // nothing was sent with a secret that does not open
        }
        return masked == text ? body : Buffer.buffer(masked);
    }

    /**
     * A successful answer as the client gets it, the secret masked; the same buffer when the
     * answer does not quote it (the bytes are scanned as they are, never decoded).
     */
    Buffer answer(Buffer body) {
        if (body == null || body.length() == 0) {
            return body;
        }
        SecretMatcher matcher = bytesMatcher();
        if (matcher == null) {
            return body;
        }
        byte[] raw = body.getBytes();
        byte[] masked = matcher.mask(raw);
        return masked == raw ? body : Buffer.buffer(masked);
    }

    /** The masking of one committed stream, an occurrence split across chunks included. */
    StreamMask stream() {
        try {
            return new StreamMask(secrets.secretOf(credential));
        } catch (RuntimeException unopenable) {
            return new StreamMask(null); // nothing was sent with a secret that does not open
        }
    }

    private SecretMatcher bytesMatcher() {
        if (bytesMatcher == null) {
            try {
                bytesMatcher = SecretMatcher.forBytes(secrets.secretOf(credential));
            } catch (RuntimeException unopenable) {
                return null;
            }
        }
        return bytesMatcher;
    }

    /** {@code text} with the credential's base URL masked. */
    String baseUrl(String text) {
        String url = credential.baseUrl();
        if (url == null) {
            return text;
        }
        return SecretMask.apply(text, url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    }
}
