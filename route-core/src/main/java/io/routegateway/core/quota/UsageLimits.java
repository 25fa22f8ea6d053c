package io.routegateway.core.quota;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.failure.ClientEcho;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;

/**
 * Reads an official (subscription) upstream's answer for its usage-limit signal: the account's
 * window ran out and the upstream says when it resets. Pure: the response and {@code now} in, an
 * optional {@link UsageLimit} out. Only the upstream's own answer is evidence: its headers (a
 * client cannot set them) and the structured error fields of its body, and a body marker the
 * client itself sent ({@link ClientEcho}) is not.
 *
 * <p>The signals, per platform (docs/official-accounts.md says where each is documented):
 *
 * <ul>
 *   <li><b>claude</b>: a 429 with {@code anthropic-ratelimit-unified-status: rejected} (or a
 *       per-window {@code anthropic-ratelimit-unified-5h-status} / {@code -7d-status} / {@code
 *       -7d_opus-status} / {@code -7d_sonnet-status} of {@code rejected}); the reset is {@code
 *       anthropic-ratelimit-unified-reset} (the representative claim's, named by {@code
 *       anthropic-ratelimit-unified-representative-claim}) or the rejected window's own {@code
 *       -reset}, epoch seconds or RFC 3339; the latest rejected reset wins; {@code retry-after}
 *       seconds when no reset is given;
 *   <li><b>codex</b>: a 429 whose body is {@code {"error":{"type":"usage_limit_reached",
 *       "resets_at":<epoch s>}}} (older: {@code "resets_in_seconds":<s>}), or whose {@code
 *       x-codex-primary-*} / {@code x-codex-secondary-*} headers report a window at 100 % ({@code
 *       -used-percent}) with its {@code -reset-at} (epoch s) or {@code -reset-after-seconds}; the
 *       window label comes from {@code -window-minutes} (300 → {@code 5h}, 10080 → {@code 7d});
 *   <li><b>gemini</b>: a 429 {@code RESOURCE_EXHAUSTED} whose {@code error.details} carry a {@code
 *       google.rpc.QuotaFailure} violation of a per-day quota ({@code quotaId} containing {@code
 *       PerDay}: resets at the next midnight Pacific time, as the Gemini API documents), else Code
 *       Assist's {@code google.rpc.ErrorInfo} {@code metadata.quotaResetTimeStamp} (RFC 3339) or
 *       {@code metadata.quotaResetDelay}, else a {@code google.rpc.RetryInfo} {@code retryDelay}
 *       ({@code "34.07s"}, {@code "900ms"});
 *   <li><b>grok</b>: none found; a Grok 429 follows the ordinary status path.
 * </ul>
 *
 * Every reset must lie after {@code now}; one past {@link #MAX_COOLDOWN} is cut to it. A value that
 * is malformed, negative, fractional where an integer is due, of the wrong JSON type, holds a NUL
 * or is longer than {@link #MAX_VALUE_CHARS} is ignored (the next source is tried).
 */
public final class UsageLimits {

    /** The longest a usage-limit cooldown lasts: the weekly windows plus a day's slack. */
    public static final Duration MAX_COOLDOWN = Duration.ofDays(8);

    /** Header and field values longer than this are not read. */
    static final int MAX_VALUE_CHARS = 64;

    /** Bodies longer than this are not parsed: a usage-limit error is a small document. */
    static final int MAX_BODY_CHARS = 64 * 1024;

    /** The Gemini API's daily quotas reset at midnight Pacific time. */
    static final ZoneId PACIFIC = ZoneId.of("America/Los_Angeles");

    static final String CODEX_USAGE_LIMIT_TYPE = "usage_limit_reached";
    static final String GEMINI_RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED";
    static final String GEMINI_QUOTA_FAILURE = "type.googleapis.com/google.rpc.QuotaFailure";
    static final String GEMINI_RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";
    static final String GEMINI_ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,19}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,12}(\\.[0-9]{1,12})?");
    private static final Pattern PROTO_DURATION = Pattern.compile("([0-9]{1,12}(?:\\.[0-9]{1,12})?)(ms|s)");

    private UsageLimits() {}

    /**
     * The usage-limit signal in one upstream answer, if any.
     *
     * @param platform the credential's platform
     * @param status the upstream HTTP status
     * @param headers the response headers
     * @param body the response body as text, may be null
     * @param now the moment the answer arrived
     * @param echo what the client sent in this attempt's request
     */
    public static Optional<UsageLimit> parse(
            Platform platform, int status, ResponseHeaders headers, String body, Instant now, ClientEcho echo) {
        if (platform == null || status != 429) {
            return Optional.empty();
        }
        ResponseHeaders safeHeaders = headers == null ? ResponseHeaders.NONE : headers;
        ClientEcho safeEcho = echo == null ? ClientEcho.NONE : echo;
        switch (platform) {
            case CLAUDE:
                return claude(safeHeaders, now);
            case CODEX:
                return codex(safeHeaders, errorObject(body), now, safeEcho);
            case GEMINI:
                return gemini(errorObject(body), now, safeEcho);
            default:
                return Optional.empty();
        }
    }

    /**
     * An official account's verdict with its usage-limit signal folded in: a transient (or classic
     * quota) failure carrying a signal becomes a {@link Verdict.QuotaExhausted} with the reset, so
     * the account cools until the window resets and the request fails over. Anything else — api
     * credentials, successes, not-a-failure answers, revocations, answers without a signal — is
     * returned as it is.
     */
    public static Verdict refine(
            Verdict verdict,
            CredentialKind kind,
            Platform platform,
            Integer status,
            ResponseHeaders headers,
            String body,
            Instant now,
            ClientEcho echo) {
        if (kind != CredentialKind.OFFICIAL
                || status == null
                || !(verdict instanceof Verdict.Transient || verdict instanceof Verdict.QuotaExhausted)) {
            return verdict;
        }
        return parse(platform, status, headers, body, now, echo)
                .<Verdict>map(limit ->
                        new Verdict.QuotaExhausted(status, limit.reason(), body, limit.resetsAt(), limit.limitWindow()))
                .orElse(verdict);
    }

    // ---- claude ------------------------------------------------------------------------------

    private static final String CLAUDE_PREFIX = "anthropic-ratelimit-unified-";
    /** Per-window header infixes and their labels. */
    private static final String[][] CLAUDE_WINDOWS = {
        {"5h", "5h"}, {"7d", "7d"}, {"7d_opus", "7d_opus"}, {"7d_sonnet", "7d_sonnet"},
    };

    private static Optional<UsageLimit> claude(ResponseHeaders headers, Instant now) {
        Instant latest = null;
        String window = null;
        String source = null;
        if (isRejected(headers.get(CLAUDE_PREFIX + "status"))) {
            Instant reset = instantValue(headers.get(CLAUDE_PREFIX + "reset"), now);
            if (reset != null) {
                latest = reset;
                window = claudeClaimWindow(headers.get(CLAUDE_PREFIX + "representative-claim"));
                source = CLAUDE_PREFIX + "reset";
            }
        }
        for (String[] candidate : CLAUDE_WINDOWS) {
            String prefix = CLAUDE_PREFIX + candidate[0] + "-";
            if (isRejected(headers.get(prefix + "status"))) {
                Instant reset = instantValue(headers.get(prefix + "reset"), now);
                if (reset != null && (latest == null || reset.isAfter(latest))) {
                    latest = reset;
                    window = candidate[1];
                    source = prefix + "reset";
                }
            }
        }
        if (latest == null && isRejected(headers.get(CLAUDE_PREFIX + "status"))) {
            Long seconds = secondsValue(headers.get("retry-after"));
            if (seconds != null) {
                latest = now.plusSeconds(seconds);
                window = claudeClaimWindow(headers.get(CLAUDE_PREFIX + "representative-claim"));
                source = "retry-after";
            }
        }
        return limit("Claude", latest, window, source, now);
    }

    private static boolean isRejected(String status) {
        return status != null && status.strip().equalsIgnoreCase("rejected");
    }

    /** {@code five_hour} → {@code 5h}, {@code seven_day} → {@code 7d}, {@code seven_day_opus} → {@code 7d_opus}. */
    static String claudeClaimWindow(String claim) {
        if (claim == null) {
            return null;
        }
        String normalized = claim.strip().toLowerCase(Locale.ROOT);
        switch (normalized) {
            case "five_hour":
                return "5h";
            case "seven_day":
                return "7d";
            case "seven_day_opus":
                return "7d_opus";
            case "seven_day_sonnet":
                return "7d_sonnet";
            default:
                return null;
        }
    }

    // ---- codex -------------------------------------------------------------------------------

    private static Optional<UsageLimit> codex(ResponseHeaders headers, JsonNode error, Instant now, ClientEcho echo) {
        CodexWindow exhausted = null;
        for (String name : new String[] {"primary", "secondary"}) {
            CodexWindow window = codexWindow(headers, name, now);
            if (window != null
                    && window.exhausted
                    && window.resetsAt != null
                    && (exhausted == null || window.resetsAt.isAfter(exhausted.resetsAt))) {
                exhausted = window;
            }
        }
        String window = exhausted == null ? null : exhausted.label;
        String type = error == null ? null : textField(error, "type");
        if (type != null
                && type.strip().equalsIgnoreCase(CODEX_USAGE_LIMIT_TYPE)
                && !echo.sent(CODEX_USAGE_LIMIT_TYPE)) {
            Instant reset = epochSecondsField(error.get("resets_at"), now);
            if (reset != null && reset.isAfter(now)) {
                return limit("Codex", reset, window, "error.resets_at", now);
            }
            Long seconds = integralSeconds(error.get("resets_in_seconds"));
            if (seconds != null) {
                return limit("Codex", now.plusSeconds(seconds), window, "error.resets_in_seconds", now);
            }
        }
        if (exhausted != null) {
            return limit("Codex", exhausted.resetsAt, exhausted.label, exhausted.source, now);
        }
        return Optional.empty();
    }

    private record CodexWindow(boolean exhausted, Instant resetsAt, String label, String source) {}

    private static CodexWindow codexWindow(ResponseHeaders headers, String name, Instant now) {
        String prefix = "x-codex-" + name + "-";
        Double used = percentValue(headers.get(prefix + "used-percent"));
        if (used == null) {
            return null;
        }
        String source = prefix + "reset-at";
        Instant reset = instantValue(headers.get(source), now);
        if (reset == null) {
            Long after = secondsValue(headers.get(prefix + "reset-after-seconds"));
            if (after != null) {
                reset = now.plusSeconds(after);
                source = prefix + "reset-after-seconds";
            }
        }
        Long minutes = positiveWhole(headers.get(prefix + "window-minutes"));
        return new CodexWindow(used >= 100.0, reset, minutes == null ? null : windowLabel(minutes), source);
    }

    /** 300 → {@code 5h}, 10080 → {@code 7d}, 90 → {@code 90m}; null beyond a year or at 0. */
    static String windowLabel(long minutes) {
        if (minutes <= 0 || minutes > 366L * 24 * 60) {
            return null;
        }
        if (minutes % (24 * 60) == 0) {
            return minutes / (24 * 60) + "d";
        }
        if (minutes % 60 == 0) {
            return minutes / 60 + "h";
        }
        return minutes + "m";
    }

    // ---- gemini ------------------------------------------------------------------------------

    private static Optional<UsageLimit> gemini(JsonNode error, Instant now, ClientEcho echo) {
        if (error == null) {
            return Optional.empty();
        }
        String status = textField(error, "status");
        if (status == null
                || !status.strip().equals(GEMINI_RESOURCE_EXHAUSTED)
                || echo.sent(GEMINI_RESOURCE_EXHAUSTED)) {
            return Optional.empty();
        }
        JsonNode details = error.get("details");
        if (details == null || !details.isArray()) {
            return Optional.empty();
        }
        boolean daily = false;
        boolean perMinute = false;
        Instant retryAt = null;
        Instant resetStamp = null;
        Instant resetDelay = null;
        for (JsonNode detail : details) {
            if (!detail.isObject()) {
                continue;
            }
            String type = textField(detail, "@type");
            if (GEMINI_QUOTA_FAILURE.equals(type)) {
                JsonNode violations = detail.get("violations");
                if (violations != null && violations.isArray()) {
                    for (JsonNode violation : violations) {
                        String quotaId = violation.isObject() ? textField(violation, "quotaId") : null;
                        if (quotaId == null || echo.sent(quotaId)) {
                            continue;
                        }
                        daily |= quotaId.contains("PerDay") || quotaId.contains("Daily");
                        perMinute |= quotaId.contains("PerMinute");
                    }
                }
            } else if (GEMINI_RETRY_INFO.equals(type)) {
                Instant at = protoDuration(textField(detail, "retryDelay"), now);
                if (at != null) {
                    retryAt = at;
                }
            } else if (GEMINI_ERROR_INFO.equals(type)) {
                // Code Assist (cloudcode-pa) says when the exhausted quota comes back
                JsonNode metadata = detail.get("metadata");
                if (metadata != null && metadata.isObject()) {
                    Instant stamp = instantValue(textField(metadata, "quotaResetTimeStamp"), now);
                    if (stamp != null && stamp.isAfter(now)) {
                        resetStamp = stamp;
                    }
                    Instant delay = protoDuration(textField(metadata, "quotaResetDelay"), now);
                    if (delay != null) {
                        resetDelay = delay;
                    }
                }
            }
        }
        if (daily) {
            Instant midnight = nextPacificMidnight(now);
            Instant reported = firstNonNull(resetStamp, resetDelay, retryAt);
            Instant reset = reported != null && reported.isAfter(midnight) ? reported : midnight;
            return limit("Gemini", reset, "1d", "QuotaFailure.quotaId", now);
        }
        String window = perMinute ? "1m" : null;
        if (resetStamp != null) {
            return limit("Gemini", resetStamp, window, "ErrorInfo.metadata.quotaResetTimeStamp", now);
        }
        if (resetDelay != null) {
            return limit("Gemini", resetDelay, window, "ErrorInfo.metadata.quotaResetDelay", now);
        }
        if (retryAt != null) {
            return limit("Gemini", retryAt, window, "RetryInfo.retryDelay", now);
        }
        return Optional.empty();
    }

    private static Instant firstNonNull(Instant... instants) {
        for (Instant instant : instants) {
            if (instant != null) {
                return instant;
            }
        }
        return null;
    }

    /** The first midnight in Pacific time strictly after {@code now}. */
    static Instant nextPacificMidnight(Instant now) {
        LocalDate today = now.atZone(PACIFIC).toLocalDate();
        return today.plusDays(1).atStartOfDay(PACIFIC).toInstant();
    }

    /** A protobuf JSON duration ({@code "34.074824224s"}, {@code "900ms"}) after {@code now}, seconds rounded up. */
    static Instant protoDuration(String value, Instant now) {
        if (value == null || value.length() > MAX_VALUE_CHARS) {
            return null;
        }
        Matcher matcher = PROTO_DURATION.matcher(value.strip());
        if (!matcher.matches()) {
            return null;
        }
        BigDecimal amount = new BigDecimal(matcher.group(1));
        if (matcher.group(2).equals("ms")) {
            amount = amount.movePointLeft(3);
        }
        long seconds = amount.setScale(0, RoundingMode.CEILING)
                .min(BigDecimal.valueOf(MAX_COOLDOWN.toSeconds() + 1))
                .longValueExact();
        return seconds <= 0 ? null : now.plusSeconds(seconds);
    }

    // ---- shared ------------------------------------------------------------------------------

    /**
     * The limit, when the reset is after {@code now}; cut to {@link #MAX_COOLDOWN} after it.
     */
    private static Optional<UsageLimit> limit(
            String platform, Instant resetsAt, String window, String source, Instant now) {
        if (resetsAt == null || !resetsAt.isAfter(now)) {
            return Optional.empty();
        }
        Instant bound = now.plus(MAX_COOLDOWN);
        Instant reset = resetsAt.isAfter(bound) ? bound : resetsAt;
        return Optional.of(new UsageLimit(reset, window, reason(platform, window, reset), source));
    }

    /** {@code Claude usage limit reached: 5-hour window resets at 2026-12-01T23:00:00Z}. */
    static String reason(String platform, String window, Instant reset) {
        return platform + " usage limit reached: " + describe(window) + " resets at "
                + reset.truncatedTo(ChronoUnit.SECONDS);
    }

    /** {@code 5h} → {@code 5-hour window}, {@code 7d_opus} → {@code 7-day opus window}, null → {@code usage window}. */
    static String describe(String window) {
        if (window == null) {
            return "usage window";
        }
        String base = window;
        String qualifier = "";
        int underscore = window.indexOf('_');
        if (underscore > 0) {
            base = window.substring(0, underscore);
            qualifier = " " + window.substring(underscore + 1);
        }
        if (base.length() < 2) {
            return "usage window";
        }
        String amount = base.substring(0, base.length() - 1);
        String unit = switch (base.charAt(base.length() - 1)) {
            case 'd' -> "day";
            case 'h' -> "hour";
            case 'm' -> "minute";
            default -> null;
        };
        if (unit == null || !DIGITS.matcher(amount).matches()) {
            return "usage window";
        }
        return amount + "-" + unit + qualifier + " window";
    }

    /** The {@code error} object of a JSON error body, or null. */
    private static JsonNode errorObject(String body) {
        if (body == null || body.isEmpty() || body.length() > MAX_BODY_CHARS) {
            return null;
        }
        try {
            JsonNode root = Json.MAPPER.readTree(body);
            JsonNode error = root == null ? null : root.get("error");
            return error != null && error.isObject() ? error : null;
        } catch (IOException | RuntimeException malformed) {
            return null;
        }
    }

    private static String textField(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            return null;
        }
        String text = value.textValue();
        return text.length() > MAX_VALUE_CHARS * 4 || text.indexOf('\u0000') >= 0 ? null : text;
    }

    /** A JSON integral number of epoch seconds after {@code now} (a string, a float or a boolean is not one). */
    private static Instant epochSecondsField(JsonNode value, Instant now) {
        if (value == null || !value.isIntegralNumber()) {
            return null;
        }
        if (!value.canConvertToLong()) {
            // beyond any representable instant: a reset far in the future, cut to the bound
            return value.bigIntegerValue().signum() > 0 ? now.plus(MAX_COOLDOWN) : null;
        }
        return epochSeconds(value.longValue(), now);
    }

    /** A positive JSON integral number of seconds. */
    private static Long integralSeconds(JsonNode value) {
        if (value == null || !value.isIntegralNumber()) {
            return null;
        }
        if (!value.canConvertToLong()) {
            return value.bigIntegerValue().signum() > 0 ? MAX_COOLDOWN.toSeconds() + 1 : null;
        }
        long seconds = value.longValue();
        return seconds <= 0 ? null : Math.min(seconds, MAX_COOLDOWN.toSeconds() + 1);
    }

    private static Instant epochSeconds(long seconds, Instant now) {
        if (seconds <= 0) {
            return null;
        }
        long bound = now.plus(MAX_COOLDOWN).getEpochSecond() + 1;
        return Instant.ofEpochSecond(Math.min(seconds, bound));
    }

    /** A header instant: epoch seconds (digits) or RFC 3339; null when malformed or not positive. */
    static Instant instantValue(String raw, Instant now) {
        if (raw == null || raw.length() > MAX_VALUE_CHARS) {
            return null;
        }
        String value = raw.strip();
        if (DIGITS.matcher(value).matches()) {
            try {
                return epochSeconds(Long.parseLong(value), now);
            } catch (NumberFormatException beyondLong) {
                return now.plus(MAX_COOLDOWN);
            }
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException notRfc3339) {
            try {
                return ZonedDateTime.parse(value).toInstant();
            } catch (DateTimeException notZoned) {
                return null;
            }
        }
    }

    /**
     * Positive whole seconds from a header ({@code retry-after}, {@code -reset-after-seconds}), cut
     * just past {@link #MAX_COOLDOWN}.
     */
    static Long secondsValue(String raw) {
        Long seconds = positiveWhole(raw);
        return seconds == null ? null : Math.min(seconds, MAX_COOLDOWN.toSeconds() + 1);
    }

    /** A positive whole number of at most 19 digits from a header; {@link Long#MAX_VALUE} past it. */
    static Long positiveWhole(String raw) {
        if (raw == null || raw.length() > MAX_VALUE_CHARS) {
            return null;
        }
        String value = raw.strip();
        if (!DIGITS.matcher(value).matches()) {
            return null;
        }
        long number;
        try {
            number = Long.parseLong(value);
        } catch (NumberFormatException beyondLong) {
            number = Long.MAX_VALUE;
        }
        return number <= 0 ? null : number;
    }

    /** A non-negative decimal percentage from a header. */
    static Double percentValue(String raw) {
        if (raw == null || raw.length() > MAX_VALUE_CHARS) {
            return null;
        }
        String value = raw.strip();
        return DECIMAL.matcher(value).matches() ? Double.valueOf(value) : null;
    }
}
