package io.routegateway.core.signin;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Failed admin sign-ins counted per source, and the sources that failed too often refused for a
 * while. Pure but for its own table: the time is always passed in.
 *
 * <ul>
 *   <li>A source is an IPv4 address, or an IPv6 address's /64 (one subscriber's whole prefix: a
 *       per-address count would let anyone with a /64 guess forever), see {@link #source}.
 *   <li>A source that fails {@code maxFailures} times within {@code window} (counted from its first
 *       failure of the window) is throttled for {@code lockout}: every request from it is refused,
 *       a correct token included, so a guess that happens to be right during the lockout tells the
 *       guesser nothing. A success does not reset the count: otherwise a caller holding a weak
 *       token could interleave it with guesses at a stronger one.
 *   <li>Bounded memory: at most {@code maxSources} sources are remembered, least recently seen
 *       dropped first, and an entry whose window and lockout have passed is dropped when met. A
 *       flood of addresses therefore cannot exhaust memory; it can at most push out sources that
 *       have gone quiet (a throttled source that keeps trying stays the most recently seen).
 * </ul>
 *
 * Thread-safe (one lock; each call is a few map operations).
 */
public final class SignInThrottle {

    /** The settings ({@code state.admin.sign-in-throttle.*}). */
    public record Settings(boolean enabled, int maxFailures, Duration window, Duration lockout, int maxSources) {

        public static final Settings DEFAULT =
                new Settings(true, 10, Duration.ofMinutes(1), Duration.ofMinutes(5), 10_000);

        public Settings {
            if (maxFailures < 1) {
                throw new IllegalArgumentException("max-failures must be at least 1");
            }
            if (window == null || window.isNegative() || window.isZero()) {
                throw new IllegalArgumentException("window must be positive");
            }
            if (lockout == null || lockout.isNegative() || lockout.isZero()) {
                throw new IllegalArgumentException("lockout must be positive");
            }
            if (maxSources < 1) {
                throw new IllegalArgumentException("max-sources must be at least 1");
            }
        }
    }

    /** What a request from a source may do now. */
    public sealed interface Decision {
        /** Authenticate as usual. */
        record Allowed() implements Decision {}

        /** Refuse without looking at the token; {@code retryAfterSeconds} until the lockout ends (at least 1). */
        record Throttled(long retryAfterSeconds) implements Decision {}
    }

    /** What a failure did: whether it began a lockout (a log line is due), and how many failures the window holds. */
    public record Failure(boolean lockoutStarted, int failures) {}

    private static final Decision ALLOWED = new Decision.Allowed();

    private static final class Entry {
        Instant windowStart;
        int failures;
        Instant blockedUntil;
    }

    private final Settings settings;
    private final LinkedHashMap<String, Entry> sources;

    public SignInThrottle(Settings settings) {
        this.settings = settings;
        int max = settings.maxSources();
        this.sources = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > max;
            }
        };
    }

    public Settings settings() {
        return settings;
    }

    /** Whether a request from {@code source} may authenticate at {@code now}. */
    public synchronized Decision check(String source, Instant now) {
        if (!settings.enabled()) {
            return ALLOWED;
        }
        Entry entry = sources.get(source);
        if (entry == null) {
            return ALLOWED;
        }
        if (entry.blockedUntil != null && now.isBefore(entry.blockedUntil)) {
            long millis = Duration.between(now, entry.blockedUntil).toMillis();
            return new Decision.Throttled(Math.max(1, (millis + 999) / 1000));
        }
        if (stale(entry, now)) {
            sources.remove(source);
        }
        return ALLOWED;
    }

    /** Records a failed authentication from {@code source} at {@code now}. */
    public synchronized Failure failed(String source, Instant now) {
        if (!settings.enabled()) {
            return new Failure(false, 0);
        }
        Entry entry = sources.get(source);
        if (entry == null || stale(entry, now)) {
            entry = new Entry();
            entry.windowStart = now;
            sources.put(source, entry);
        } else if (!now.isBefore(entry.windowStart.plus(settings.window()))) {
            entry.windowStart = now;
            entry.failures = 0;
        }
        if (entry.blockedUntil != null && now.isBefore(entry.blockedUntil)) {
            return new Failure(false, entry.failures);
        }
        entry.failures++;
        if (entry.failures >= settings.maxFailures()) {
            entry.blockedUntil = now.plus(settings.lockout());
            entry.failures = 0;
            entry.windowStart = now;
            return new Failure(true, settings.maxFailures());
        }
        return new Failure(false, entry.failures);
    }

    /** Sources remembered now (bounded by {@code maxSources}). */
    public synchronized int size() {
        return sources.size();
    }

    /** Drops every entry whose window and lockout have passed (housekeeping; {@link #check} also drops them). */
    public synchronized void prune(Instant now) {
        for (Iterator<Entry> it = sources.values().iterator(); it.hasNext(); ) {
            if (stale(it.next(), now)) {
                it.remove();
            }
        }
    }

    private boolean stale(Entry entry, Instant now) {
        boolean windowOver = !now.isBefore(entry.windowStart.plus(settings.window()));
        boolean lockoutOver = entry.blockedUntil == null || !now.isBefore(entry.blockedUntil);
        return windowOver && lockoutOver;
    }

    /**
     * The source a remote address counts under: an IPv4 address as it is (an IPv4-mapped IPv6
     * address as its IPv4), an IPv6 address as its /64 ({@code 2001:db8:1:2::/64}), anything else
     * (not an address literal: a Unix socket, a missing address) as one shared {@code "unknown"}
     * source. Never a DNS lookup; the result is at most 45 characters whatever was passed.
     */
    public static String source(String remoteAddress) {
        if (remoteAddress == null) {
            return "unknown";
        }
        String host = remoteAddress.strip();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int zone = host.indexOf('%');
        if (zone >= 0) {
            host = host.substring(0, zone);
        }
        if (host.isEmpty() || host.length() > 45 || !host.chars().allMatch(SignInThrottle::addressChar)) {
            return "unknown";
        }
        if (host.indexOf(':') < 0) {
            return dottedQuad(host);
        }
        byte[] raw;
        try {
            // a bracketed literal is never looked up: it parses as IPv6 or fails
            raw = InetAddress.getByName("[" + host + "]").getAddress();
        } catch (UnknownHostException | IllegalArgumentException e) {
            return "unknown";
        }
        if (raw.length == 4) {
            return (raw[0] & 0xFF) + "." + (raw[1] & 0xFF) + "." + (raw[2] & 0xFF) + "." + (raw[3] & 0xFF);
        }
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < 8; i += 2) {
            prefix.append(Integer.toHexString(((raw[i] & 0xFF) << 8) | (raw[i + 1] & 0xFF)))
                    .append(':');
        }
        return prefix.append(":/64").toString().toLowerCase(Locale.ROOT);
    }

    /** A canonical dotted quad, or {@code "unknown"}: no other spelling is a remote address. */
    private static String dottedQuad(String host) {
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4) {
            return "unknown";
        }
        StringBuilder out = new StringBuilder();
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
                return "unknown";
            }
            int value = Integer.parseInt(part);
            if (value > 255) {
                return "unknown";
            }
            out.append(out.length() == 0 ? "" : ".").append(value);
        }
        return out.toString();
    }

    private static boolean addressChar(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' || c == '.';
    }
}
