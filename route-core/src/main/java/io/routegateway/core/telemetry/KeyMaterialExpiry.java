package io.routegateway.core.telemetry;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a service's key material stops being valid, for the gauge {@code route_key_material_expiry_seconds}
 * and its alerts: the end dates of the certificates in a key or trust store (PEM, PKCS12 or JKS, as the Kafka
 * client reads them), and the seconds from now to the soonest of them. Pure: the store's bytes and {@code now}
 * come in; nothing here reads a file or the clock.
 *
 * <p>The soonest date is what matters: a chain or a trust bundle is only as good as its first certificate to
 * lapse (an expired CA in a trust store stops the handshakes it was there for).
 */
public final class KeyMaterialExpiry {

    /** How often a store is read again: cert-manager and Strimzi renew mounted files in place. */
    public static final Duration REREAD_EVERY = Duration.ofMinutes(10);

    private static final Pattern PEM_CERTIFICATE =
            Pattern.compile("-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\\s]+?)-----END CERTIFICATE-----");

    private KeyMaterialExpiry() {}

    /**
     * The end of validity ({@code notAfter}) of every certificate in the store, in the order found.
     *
     * @param type the store's type as the Kafka client names it: {@code PEM}, {@code PKCS12} or {@code JKS}
     *     (case-insensitive)
     * @param password the store's password, or null when it has none (PEM)
     * @throws IllegalArgumentException when the bytes are not a store of that type or hold no certificate; the
     *     message names the type, never the password
     */
    public static List<Instant> notAfters(byte[] store, String type, char[] password) {
        String kind = type == null ? "JKS" : type.trim().toUpperCase(Locale.ROOT);
        List<Instant> ends = kind.equals("PEM") ? pemNotAfters(store) : keyStoreNotAfters(store, kind, password);
        if (ends.isEmpty()) {
            throw new IllegalArgumentException("the " + kind + " store holds no certificate");
        }
        return Collections.unmodifiableList(ends);
    }

    /**
     * Seconds from {@code now} to the soonest end among {@code notAfters}: negative once it has passed, empty
     * when there is none.
     */
    public static OptionalDouble secondsLeft(Collection<Instant> notAfters, Instant now) {
        return notAfters.stream()
                .min(Instant::compareTo)
                .map(soonest -> OptionalDouble.of(Duration.between(now, soonest).toMillis() / 1000.0))
                .orElse(OptionalDouble.empty());
    }

    /** Whether a store read at {@code readAt} (null: never) is to be read again at {@code now}. */
    public static boolean dueForReread(Instant readAt, Instant now) {
        return readAt == null || !now.isBefore(readAt.plus(REREAD_EVERY));
    }

    private static List<Instant> pemNotAfters(byte[] store) {
        // The Kafka client's PEM stores may also hold a private key: only the CERTIFICATE blocks count.
        Matcher block = PEM_CERTIFICATE.matcher(new String(store, StandardCharsets.US_ASCII));
        List<Instant> ends = new ArrayList<>();
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            while (block.find()) {
                byte[] der = Base64.getMimeDecoder().decode(block.group(1));
                Certificate certificate = x509.generateCertificate(new ByteArrayInputStream(der));
                ends.add(((X509Certificate) certificate).getNotAfter().toInstant());
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("a PEM certificate block is not a valid X.509 certificate", e);
        }
        return ends;
    }

    private static List<Instant> keyStoreNotAfters(byte[] store, String kind, char[] password) {
        if (!kind.equals("PKCS12") && !kind.equals("JKS")) {
            throw new IllegalArgumentException("store type " + kind + " is not PEM, PKCS12 or JKS");
        }
        List<Instant> ends = new ArrayList<>();
        try {
            KeyStore keyStore = KeyStore.getInstance(kind);
            keyStore.load(new ByteArrayInputStream(store), password);
            for (String alias : Collections.list(keyStore.aliases())) {
                Certificate[] chain = keyStore.getCertificateChain(alias);
                if (chain == null) {
                    Certificate trusted = keyStore.getCertificate(alias);
                    chain = trusted == null ? new Certificate[0] : new Certificate[] {trusted};
                }
                for (Certificate certificate : chain) {
                    if (certificate instanceof X509Certificate x509) {
                        ends.add(x509.getNotAfter().toInstant());
                    }
                }
            }
        } catch (GeneralSecurityException | java.io.IOException e) {
            // The JDK's message may say "password was incorrect" but never holds the password itself.
            throw new IllegalArgumentException(
                    "the " + kind + " store cannot be read: " + e.getClass().getSimpleName(), e);
        }
        return ends;
    }
}
