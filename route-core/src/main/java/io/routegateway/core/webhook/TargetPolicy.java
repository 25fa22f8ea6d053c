package io.routegateway.core.webhook;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import io.routegateway.core.text.StorableText;

/**
 * Where webhooks may be sent. A target is an absolute {@code http(s)} URL without user info or
 * fragment, at most {@link #MAX_URL} characters, whose host is not internal: loopback, link-local
 * (cloud metadata at 169.254.169.254 included), private (10/8, 172.16/12, 192.168/16, fc00::/7),
 * carrier-grade NAT (100.64/10), unspecified, multicast or broadcast addresses, and the names
 * {@code localhost}, {@code *.localhost}, {@code metadata}, {@code metadata.google.internal} are all
 * refused, unless the operator allow-lists the host name or a CIDR holding the address ({@code
 * state.webhook.allowed-targets}). A numeric host must be a canonical dotted quad (no {@code
 * 2130706433} or {@code 0x7f.1} spellings of loopback).
 *
 * <p>Checked twice: when an endpoint is stored ({@link #refusal(String)}: the URL and a literal
 * address), and at each delivery on every address the host resolves to ({@link
 * #refusalOfAddress}); the delivery then connects to the address it checked, so a name that
 * re-resolves to an internal address in between is never reached.
 */
public final class TargetPolicy {

    public static final int MAX_URL = 2048;

    private static final Pattern NUMERIC_HOST = Pattern.compile("[0-9a-fA-FxX.]+");
    private static final Pattern DOTTED_QUAD = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
    private static final List<String> INTERNAL_NAMES = List.of("localhost", "metadata", "metadata.google.internal");

    private final List<String> allowedHosts;
    private final List<Cidr> allowedCidrs;

    private record Cidr(byte[] network, int bits) {

        boolean contains(InetAddress address) {
            byte[] bytes = address.getAddress();
            if (bytes.length != network.length) {
                return false;
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (bytes[i] != network[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (bytes[full] & mask) == (network[full] & mask);
        }
    }

    private TargetPolicy(List<String> allowedHosts, List<Cidr> allowedCidrs) {
        this.allowedHosts = allowedHosts;
        this.allowedCidrs = allowedCidrs;
    }

    /** Nothing internal allowed. */
    public static TargetPolicy strict() {
        return new TargetPolicy(List.of(), List.of());
    }

    /**
     * @param allowList host names (exact, case-insensitive), addresses or CIDRs ({@code 10.1.0.0/16},
     *     {@code fd00::/8}) the operator allows even though internal
     * @throws IllegalArgumentException for an entry that is none of these
     */
    public static TargetPolicy allowing(List<String> allowList) {
        List<String> hosts = new ArrayList<>();
        List<Cidr> cidrs = new ArrayList<>();
        for (String raw : allowList) {
            String entry = raw.strip().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            int slash = entry.indexOf('/');
            String addressPart = slash < 0 ? entry : entry.substring(0, slash);
            InetAddress literal = literal(addressPart);
            if (literal == null) {
                if (slash >= 0) {
                    throw new IllegalArgumentException("an allowed webhook target CIDR must start with an address");
                }
                hosts.add(entry);
                continue;
            }
            int max = literal.getAddress().length * 8;
            int bits;
            try {
                bits = slash < 0 ? max : Integer.parseInt(entry.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("an allowed webhook target CIDR has a bad prefix length");
            }
            if (bits < 0 || bits > max) {
                throw new IllegalArgumentException("an allowed webhook target CIDR has a bad prefix length");
            }
            cidrs.add(new Cidr(literal.getAddress(), bits));
        }
        return new TargetPolicy(List.copyOf(hosts), List.copyOf(cidrs));
    }

    /**
     * Why the URL may not be a webhook target, or null when it may (for now: a host name is resolved
     * and checked again at delivery).
     */
    public String refusal(String url) {
        if (url == null || url.isBlank()) {
            return "url is required";
        }
        if (url.length() > MAX_URL) {
            return "url must be at most " + MAX_URL + " characters";
        }
        if (!StorableText.isSingleLine(url, MAX_URL) || !url.equals(url.strip())) {
            return "url must not contain spaces, control characters, U+0000 or unpaired surrogates";
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return "url is not a valid URL";
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https"))
                || uri.getHost() == null
                || uri.getHost().isEmpty()) {
            return "url must be an absolute http(s) URL with a host";
        }
        if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            return "url must not carry user info or a fragment";
        }
        String host = host(uri);
        if (isAllowedName(host)) {
            return null;
        }
        if (host.equals("localhost") || host.endsWith(".localhost") || INTERNAL_NAMES.contains(host)) {
            return "url names an internal host; an operator may allow it (state.webhook.allowed-targets)";
        }
        InetAddress literal = literal(host);
        if (literal == null && NUMERIC_HOST.matcher(host).matches() && !host.contains(":") && looksNumeric(host)) {
            return "url's numeric host must be a canonical dotted quad";
        }
        return literal == null ? null : refusalOfAddress(host, literal);
    }

    /** Why a delivery to {@code address} (what {@code host} resolved to) is refused, or null. */
    public String refusalOfAddress(String host, InetAddress address) {
        if (isAllowedName(host == null ? "" : host.toLowerCase(Locale.ROOT))) {
            return null;
        }
        for (Cidr cidr : allowedCidrs) {
            if (cidr.contains(address)) {
                return null;
            }
        }
        if (isInternal(address)) {
            return "the target resolves to an internal address (loopback, link-local, private or metadata);"
                    + " an operator may allow it (state.webhook.allowed-targets)";
        }
        return null;
    }

    /** The URL's host, lower case, without IPv6 brackets. */
    public static String host(URI uri) {
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return host;
    }

    private boolean isAllowedName(String host) {
        return allowedHosts.contains(host);
    }

    private static boolean looksNumeric(String host) {
        // a name made of hex digits only is a plausible domain ("cafe.example" has a dot and letters);
        // refuse only what an address parser could read as a number: digits, dots and 0x prefixes
        return host.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == 'x' || c == 'X')
                || host.startsWith("0x");
    }

    static boolean isInternal(InetAddress address) {
        if (address.isLoopbackAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isAnyLocalAddress()
                || address.isMulticastAddress()) {
            return true;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first == 0 // this network
                    || (first == 100 && second >= 64 && second <= 127) // carrier-grade NAT
                    || (first == 192 && second == 0 && (b[2] & 0xff) == 0) // IETF protocol assignments
                    || (first == 198 && (second == 18 || second == 19)) // benchmarking
                    || first >= 240; // reserved and broadcast
        }
        if (address instanceof Inet6Address six) {
            if ((b[0] & 0xfe) == 0xfc) {
                return true; // unique local fc00::/7 (fd00:ec2::254 is a metadata address)
            }
            if (six.isIPv4CompatibleAddress()) {
                try {
                    return isInternal(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
                } catch (UnknownHostException e) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The address a literal host spells (canonical dotted quad or an IPv6 literal), else null; never resolves. */
    static InetAddress literal(String host) {
        try {
            if (DOTTED_QUAD.matcher(host).matches()) {
                return InetAddress.getByName(host);
            }
            if (host.contains(":") && host.matches("[0-9a-fA-F:.]+")) {
                return InetAddress.getByName(host);
            }
        } catch (UnknownHostException e) {
            return null;
        }
        return null;
    }
}
