package io.routegateway.core.hostpolicy;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;

/**
 * Where a credential's secret may be sent: the policy on its {@code base_url}, checked when the
 * admin writes it ({@link #check(String)}) and again against the address a connection resolved to
 * ({@link #checkResolved}), so a name that later resolves elsewhere (DNS rebinding) is refused too.
 * Refused by default:
 *
 * <ul>
 *   <li>{@code link_local}: 169.254.0.0/16 and fe80::/10, in every spelling an URL parser or a
 *       resolver accepts — decimal ({@code 2852039166}), hex ({@code 0xa9fea9fe}), octal ({@code
 *       0251.0376.0251.0376}), short forms ({@code 169.254.43518}, {@code 169.16689662}), and inside
 *       IPv6 (IPv4-mapped {@code ::ffff:169.254.169.254}, IPv4-compatible, NAT64 {@code
 *       64:ff9b::/96}, 6to4 {@code 2002::/16});
 *   <li>{@code metadata}: the cloud metadata services by name ({@code metadata.google.internal},
 *       {@code metadata.azure.com}, {@code instance-data}, …) and address ({@code fd00:ec2::254},
 *       Alibaba's {@code 100.100.100.200});
 *   <li>{@code own_port}: the deployment's own service ports ({@code deniedPorts}: the gateway,
 *       state and recovery HTTP and management ports) on a host that is not public (loopback,
 *       private, unqualified or cluster-internal names);
 *   <li>{@code cleartext}: {@code http://} to a public host, unless {@code allowCleartextPublic} or
 *       the host is in {@code cleartextHosts}.
 * </ul>
 *
 * A host in {@code allowedHosts} is never refused (an operator's explicit exception). Pure: the
 * write check does no DNS lookup.
 */
public record HostPolicy(
        Set<Integer> deniedPorts, Set<String> allowedHosts, Set<String> cleartextHosts, boolean allowCleartextPublic) {

    public static final String CODE = "validation.base_url_denied";

    /** The ports of the services as shipped: gateway 8080/9080, state 8081/9081, recovery 8082/9082. */
    public static final Set<Integer> DEFAULT_PORTS = Set.of(8080, 8081, 8082, 9080, 9081, 9082);

    public static final HostPolicy DEFAULT = new HostPolicy(DEFAULT_PORTS, Set.of(), Set.of(), false);

    /** Metadata services by name (lower case, no trailing dot). */
    static final Set<String> METADATA_NAMES = Set.of(
            "metadata.google.internal",
            "metadata.goog",
            "metadata",
            "metadata.azure.com",
            "metadata.azure.internal",
            "instance-data",
            "instance-data.ec2.internal",
            "metadata.platformequinix.com",
            "metadata.packet.net",
            "metadata.tencentyun.com",
            "metadata.oraclecloud.com");

    public HostPolicy {
        deniedPorts = deniedPorts == null ? Set.of() : Set.copyOf(deniedPorts);
        allowedHosts = lower(allowedHosts);
        cleartextHosts = lower(cleartextHosts);
    }

    /** Why a base URL or address is refused. */
    public enum Reason {
        LINK_LOCAL("link_local", "a link-local address"),
        METADATA("metadata", "a cloud metadata service"),
        OWN_PORT("own_port", "one of this deployment's own service ports"),
        CLEARTEXT("cleartext", "cleartext http:// to a public host");

        private final String wire;
        private final String text;

        Reason(String wire, String text) {
            this.wire = wire;
            this.text = text;
        }

        public String wire() {
            return wire;
        }

        /** The refusal's message, naming the reason (never the URL: it may be an echo attack). */
        public String message() {
            return "base_url is refused (" + wire + "): it points at " + text;
        }
    }

    /**
     * The reason {@code baseUrl} is refused at write time; null when it is allowed (or is no http(s)
     * URL at all: the format check refuses that).
     */
    public Reason check(String baseUrl) {
        URI uri;
        try {
            uri = new URI(baseUrl);
        } catch (URISyntaxException | NullPointerException e) {
            return null;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getRawAuthority() == null) {
            return null; // not a URL this policy speaks about: the base_url format check refuses it
        }
        // java.net.URI leaves the host of "http://2852039166/" or "http://169.254.43518/" unset;
        // HTTP clients and resolvers do not, so the authority is read here as they read it
        String authority = uri.getRawAuthority();
        int at = authority.lastIndexOf('@');
        authority = authority.substring(at + 1);
        String host = authority;
        int port = -1;
        int colon = authority.lastIndexOf(':');
        if (colon >= 0 && authority.indexOf(']') < colon) {
            host = authority.substring(0, colon);
            try {
                port = Integer.parseInt(authority.substring(colon + 1));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        host = normalise(host);
        if (host.isEmpty() || allowedHosts.contains(host)) {
            return null;
        }
        if (port < 0) {
            port = scheme.equals("https") ? 443 : 80;
        }
        byte[] address = literal(host);
        if (address != null) {
            return checkAddress(address, scheme.equals("http"), port, host);
        }
        if (METADATA_NAMES.contains(host)) {
            return Reason.METADATA;
        }
        boolean internalName = isInternalName(host);
        if (internalName && deniedPorts.contains(port)) {
            return Reason.OWN_PORT;
        }
        if (scheme.equals("http") && !internalName && !cleartextAllowed(host)) {
            return Reason.CLEARTEXT;
        }
        return null;
    }

    /**
     * The reason a connection to {@code address} (what {@code host} resolved to) is refused; null
     * when it is allowed.
     */
    public Reason checkResolved(String host, InetAddress address, boolean cleartext, int port) {
        String name = host == null ? "" : normalise(host);
        if (allowedHosts.contains(name)) {
            return null;
        }
        return checkAddress(address.getAddress(), cleartext, port, name);
    }

    private Reason checkAddress(byte[] raw, boolean cleartext, int port, String host) {
        byte[] v4 = embeddedV4(raw);
        if (v4 != null) {
            if ((v4[0] & 0xFF) == 169 && (v4[1] & 0xFF) == 254) {
                return Reason.LINK_LOCAL;
            }
            if ((v4[0] & 0xFF) == 100 && (v4[1] & 0xFF) == 100 && (v4[2] & 0xFF) == 100 && (v4[3] & 0xFF) == 200) {
                return Reason.METADATA;
            }
        } else {
            if ((raw[0] & 0xFF) == 0xFE && (raw[1] & 0xC0) == 0x80) {
                return Reason.LINK_LOCAL;
            }
            if (isAwsV6Metadata(raw)) {
                return Reason.METADATA;
            }
        }
        boolean internal = isInternalAddress(v4 != null ? v4 : raw);
        if (internal && deniedPorts.contains(port)) {
            return Reason.OWN_PORT;
        }
        if (cleartext && !internal && !cleartextAllowed(host)) {
            return Reason.CLEARTEXT;
        }
        return null;
    }

    private boolean cleartextAllowed(String host) {
        return allowCleartextPublic || cleartextHosts.contains(host);
    }

    /** fd00:ec2::254 */
    private static boolean isAwsV6Metadata(byte[] raw) {
        byte[] expected = {(byte) 0xfd, 0, 0x0e, (byte) 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54};
        return java.util.Arrays.equals(raw, expected);
    }

    /** The IPv4 address an address is or carries (mapped, compatible, NAT64, 6to4); null for another IPv6 one. */
    static byte[] embeddedV4(byte[] raw) {
        if (raw.length == 4) {
            return raw;
        }
        boolean zeroTen = true;
        for (int i = 0; i < 10; i++) {
            zeroTen &= raw[i] == 0;
        }
        if (zeroTen && ((raw[10] == (byte) 0xFF && raw[11] == (byte) 0xFF) || (raw[10] == 0 && raw[11] == 0))) {
            if (raw[10] == 0 && raw[12] == 0 && raw[13] == 0 && raw[14] == 0 && (raw[15] & 0xFF) <= 1) {
                return null; // :: and ::1
            }
            return new byte[] {raw[12], raw[13], raw[14], raw[15]};
        }
        // NAT64 64:ff9b::/96
        if (raw[0] == 0 && raw[1] == 0x64 && raw[2] == (byte) 0xff && raw[3] == (byte) 0x9b) {
            boolean zeros = true;
            for (int i = 4; i < 12; i++) {
                zeros &= raw[i] == 0;
            }
            if (zeros) {
                return new byte[] {raw[12], raw[13], raw[14], raw[15]};
            }
        }
        // 6to4 2002:AABB:CCDD::/48
        if (raw[0] == 0x20 && raw[1] == 0x02) {
            return new byte[] {raw[2], raw[3], raw[4], raw[5]};
        }
        return null;
    }

    /** Loopback, unspecified, private (RFC 1918, CGNAT, ULA): not reachable from the public internet. */
    private static boolean isInternalAddress(byte[] raw) {
        if (raw.length == 4) {
            int a = raw[0] & 0xFF;
            int b = raw[1] & 0xFF;
            return a == 127
                    || a == 0
                    || a == 10
                    || (a == 172 && b >= 16 && b <= 31)
                    || (a == 192 && b == 168)
                    || (a == 100 && b >= 64 && b <= 127);
        }
        boolean zeroPrefix = true;
        for (int i = 0; i < 15; i++) {
            zeroPrefix &= raw[i] == 0;
        }
        return zeroPrefix || (raw[0] & 0xFE) == 0xFC;
    }

    /** A name that is not a public DNS name: localhost, a single label, or a cluster- or site-internal suffix. */
    private static boolean isInternalName(String host) {
        return host.equals("localhost")
                || host.endsWith(".localhost")
                || !host.contains(".")
                || host.endsWith(".internal")
                || host.endsWith(".local")
                || host.endsWith(".svc")
                || host.endsWith(".cluster.local")
                || host.endsWith(".lan")
                || host.endsWith(".home.arpa");
    }

    static String normalise(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        while (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return h;
    }

    /**
     * The address {@code host} spells literally, in any form a resolver accepts (inet_aton: one to
     * four parts, each decimal, octal with a leading 0 or hex with 0x, the last filling the remaining
     * bytes; or an IPv6 literal); null for a name.
     */
    static byte[] literal(String host) {
        if (host.contains(":")) {
            int zone = host.indexOf('%');
            String v6 = zone < 0 ? host : host.substring(0, zone);
            if (!v6.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                return null;
            }
            try {
                InetAddress address = InetAddress.getByName("[" + v6 + "]");
                return address instanceof Inet6Address || address instanceof Inet4Address ? address.getAddress() : null;
            } catch (UnknownHostException | IllegalArgumentException e) {
                return null;
            }
        }
        String[] parts = host.split("\\.", -1);
        if (parts.length > 4) {
            return null;
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            Long value = number(parts[i]);
            if (value == null) {
                return null;
            }
            values[i] = value;
        }
        long address = 0;
        for (int i = 0; i < parts.length - 1; i++) {
            if (values[i] > 255) {
                return null;
            }
            address |= values[i] << (8 * (3 - i));
        }
        long last = values[parts.length - 1];
        int lastBytes = 4 - (parts.length - 1);
        if (last >= 1L << (8 * lastBytes)) {
            return null;
        }
        address |= last;
        return new byte[] {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
    }

    private static Long number(String part) {
        if (part.isEmpty() || part.length() > 34) {
            return null;
        }
        int radix = 10;
        String digits = part;
        if (part.startsWith("0x") || part.startsWith("0X")) {
            radix = 16;
            digits = part.substring(2);
            if (digits.isEmpty()) {
                return 0L; // "0x" alone is 0 to inet_aton
            }
        } else if (part.length() > 1 && part.startsWith("0")) {
            radix = 8;
            digits = part.substring(1);
        }
        try {
            long value = Long.parseLong(digits, radix);
            return value < 0 || value > 0xFFFFFFFFL ? null : value;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Set<String> lower(Set<String> hosts) {
        if (hosts == null) {
            return Set.of();
        }
        java.util.Set<String> out = new java.util.HashSet<>();
        for (String host : hosts) {
            if (host != null && !host.isBlank()) {
                out.add(normalise(host.strip()));
            }
        }
        return Set.copyOf(out);
    }
}
