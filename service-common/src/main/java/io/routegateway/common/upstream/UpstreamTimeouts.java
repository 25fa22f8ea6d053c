package io.routegateway.common.upstream;

import java.time.Duration;

/**
 * The two ceilings of one outbound request. There is deliberately no total deadline: a long
 * generation that keeps emitting bytes is never cut.
 *
 * @param connect longest wait for a connection to the upstream (TCP/TLS handshake, pool wait)
 * @param readGap longest silence between two reads, reset after each read
 * @param connectSetting the config key that set {@code connect}, named in the failure message
 * @param readGapSetting the config key that set {@code readGap}, named in the failure message
 */
public record UpstreamTimeouts(Duration connect, Duration readGap, String connectSetting, String readGapSetting) {

    public UpstreamTimeouts {
        if (connect == null || connect.isNegative() || connect.isZero()) {
            throw new IllegalArgumentException("connect timeout must be positive");
        }
        if (readGap == null || readGap.isNegative() || readGap.isZero()) {
            throw new IllegalArgumentException("read-gap timeout must be positive");
        }
    }

    /** Timeouts configured as {@code <prefix>.connect-timeout} and {@code <prefix>.read-gap-timeout}. */
    public static UpstreamTimeouts of(Duration connect, Duration readGap, String configPrefix) {
        return new UpstreamTimeouts(
                connect, readGap, configPrefix + ".connect-timeout", configPrefix + ".read-gap-timeout");
    }

    String connectTimeoutMessage(String server) {
        return "connect timeout: no connection to " + server + " within " + human(connect) + " (" + connectSetting + "="
                + human(connect) + ")";
    }

    String tlsHandshakeTimeoutMessage(String server) {
        return "connect timeout: TLS handshake with " + server + " not complete within " + human(connect) + " ("
                + connectSetting + "=" + human(connect) + ")";
    }

    String readGapTimeoutMessage() {
        return "read timeout: the upstream sent nothing for " + human(readGap) + " (" + readGapSetting + "="
                + human(readGap) + ")";
    }

    static String human(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? (millis / 1000) + "s" : millis + "ms";
    }
}
