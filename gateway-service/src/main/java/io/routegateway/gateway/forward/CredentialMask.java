package io.routegateway.gateway.forward;

import java.nio.charset.StandardCharsets;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.failure.SecretMask;
import io.routegateway.core.failure.Verdict;
import io.vertx.core.buffer.Buffer;

/**
 * Upstream text quoting the selected credential's secret or base URL never reaches an event, a row
 * or the client: an upstream quoting the URL it was called on names an internal host.
 */
final class CredentialMask {

    private final SecretCache secrets;
    private final CredentialSnapshot credential;

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

    /** {@code text} with the credential's base URL masked. */
    String baseUrl(String text) {
        String url = credential.baseUrl();
        if (url == null) {
            return text;
        }
        return SecretMask.apply(text, url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    }
}
