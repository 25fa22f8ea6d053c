package io.routegateway.core.recovery;

import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.ValidationCodes;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.core.text.StorableText;

/**
 * An account's recovery rule, stored as {@code config_json.recovery}. The stored JSON shape:
 *
 * <pre>
 * off          the "recovery" key is absent
 * scheduled    {"mode":"scheduled","times":["03:00","15:30"],"time_zone":"Asia/Shanghai"}
 * healthcheck  {"mode":"healthcheck","interval_minutes":30}
 * </pre>
 *
 * <p>Writes are strict ({@link #parse}): times are {@code H:MM} or {@code HH:MM}, normalized to
 * zero-padded {@code HH:MM}, de-duplicated and sorted ({@code 3:00} and {@code 03:00} are one
 * time); scheduled mode needs at least one. The time zone is an IANA id; when the input omits it the
 * caller's default (the deployment's local zone) is written explicitly, so a later change of the
 * server zone does not shift stored schedules. The probe interval defaults to 30 minutes, 1..1440.
 * Fields that do not belong to the mode are dropped.
 *
 * <p>Reads are forgiving ({@link #read}): anything that fails to parse or does not match the
 * schema is {@link #OFF}, so one bad config cannot break the recovery loop.
 */
public record RecoveryConfig(RecoveryMode mode, List<LocalTime> times, ZoneId timeZone, int intervalMinutes) {

    public static final String KEY = "recovery";
    public static final int DEFAULT_INTERVAL_MINUTES = 30;
    public static final int MIN_INTERVAL_MINUTES = 1;
    public static final int MAX_INTERVAL_MINUTES = 1440;

    /** Not named by the spec: the recovery input is not an object or its mode is missing or unknown. */
    public static final String MODE_CODE = "validation.recovery_mode";
    /** Not named by the spec: the scheduled time zone is not a known zone id. */
    public static final String TIME_ZONE_CODE = "validation.recovery_time_zone";

    public static final RecoveryConfig OFF =
            new RecoveryConfig(RecoveryMode.OFF, List.of(), null, DEFAULT_INTERVAL_MINUTES);

    private static final Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{2})");
    private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm");

    /** Normalizes and validates; throws {@link ValidationException} with the spec's codes. */
    public RecoveryConfig {
        Objects.requireNonNull(mode, "mode");
        if (mode == RecoveryMode.SCHEDULED) {
            times = normalizeTimes(times);
            if (timeZone == null) {
                throw new ValidationException(TIME_ZONE_CODE, "scheduled recovery needs a time zone");
            }
            intervalMinutes = DEFAULT_INTERVAL_MINUTES;
        } else {
            times = List.of();
            timeZone = null;
            if (mode == RecoveryMode.HEALTHCHECK) {
                checkInterval(intervalMinutes);
            } else {
                intervalMinutes = DEFAULT_INTERVAL_MINUTES;
            }
        }
    }

    public static RecoveryConfig scheduled(List<LocalTime> times, ZoneId timeZone) {
        return new RecoveryConfig(RecoveryMode.SCHEDULED, times, timeZone, DEFAULT_INTERVAL_MINUTES);
    }

    public static RecoveryConfig healthcheck(int intervalMinutes) {
        return new RecoveryConfig(RecoveryMode.HEALTHCHECK, List.of(), null, intervalMinutes);
    }

    /**
     * Strict parse of a recovery rule from the admin API. Null or JSON null means off.
     *
     * @param defaultZone the zone written when a scheduled rule names none
     * @throws ValidationException {@code validation.recovery_times_required}, {@code
     *     validation.recovery_times}, {@code validation.recovery_probe_interval}, {@link
     *     #MODE_CODE} or {@link #TIME_ZONE_CODE}
     */
    public static RecoveryConfig parse(JsonNode input, ZoneId defaultZone) {
        if (input == null || input.isNull() || input.isMissingNode()) {
            return OFF;
        }
        if (!input.isObject()) {
            throw new ValidationException(MODE_CODE, "recovery must be a JSON object");
        }
        JsonNode modeNode = input.get("mode");
        RecoveryMode mode = modeNode != null && modeNode.isTextual()
                ? RecoveryMode.fromWire(modeNode.asText()).orElse(null)
                : null;
        if (mode == null) {
            throw new ValidationException(MODE_CODE, "recovery.mode must be off, scheduled or healthcheck");
        }
        if (mode == RecoveryMode.OFF) {
            return OFF;
        }
        if (mode == RecoveryMode.HEALTHCHECK) {
            return healthcheck(parseInterval(input.get("interval_minutes")));
        }
        List<LocalTime> times = parseTimes(input.get("times"));
        return scheduled(times, parseZone(input.get("time_zone"), defaultZone));
    }

    /**
     * Forgiving read of a stored {@code config_json}: a missing, unparsable or schema-violating
     * {@code recovery} key is {@link #OFF}.
     *
     * @param defaultZone used when a stored scheduled rule names no zone
     */
    public static RecoveryConfig read(JsonNode configJson, ZoneId defaultZone) {
        if (configJson == null || !configJson.isObject()) {
            return OFF;
        }
        try {
            return parse(configJson.get(KEY), defaultZone == null ? ZoneOffset.UTC : defaultZone);
        } catch (RuntimeException e) {
            return OFF;
        }
    }

    /** {@link #read(JsonNode, ZoneId)} with UTC for a stored rule that names no zone. */
    public static RecoveryConfig read(JsonNode configJson) {
        return read(configJson, ZoneOffset.UTC);
    }

    /**
     * Writes a recovery rule into an account's {@code config_json} text and returns the new text.
     * Every other key is preserved; off removes the {@code recovery} key entirely. A stored config
     * that is not a valid JSON object is refused with {@code validation.recovery_config_json} rather
     * than overwritten (it may be hand-edited); null or blank text counts as no config yet.
     */
    public static String applyRecovery(String configJsonText, JsonNode recoveryInput, ZoneId defaultZone) {
        ObjectNode config = parseConfigObject(configJsonText);
        RecoveryConfig recovery = parse(recoveryInput, defaultZone);
        if (recovery.mode() == RecoveryMode.OFF) {
            config.remove(KEY);
        } else {
            config.set(KEY, recovery.toJson());
        }
        return Json.write(config);
    }

    /** {@link #applyRecovery(String, JsonNode, ZoneId)} with UTC as the default zone. */
    public static String applyRecovery(String configJsonText, JsonNode recoveryInput) {
        return applyRecovery(configJsonText, recoveryInput, ZoneOffset.UTC);
    }

    /** The stored (and admin API) form; off is {@code {"mode":"off"}} here but is never stored. */
    public ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("mode", mode.wire());
        if (mode == RecoveryMode.SCHEDULED) {
            ArrayNode array = node.putArray("times");
            timeStrings().forEach(array::add);
            node.put("time_zone", timeZone.getId());
        } else if (mode == RecoveryMode.HEALTHCHECK) {
            node.put("interval_minutes", intervalMinutes);
        }
        return node;
    }

    /** The times as zero-padded {@code HH:MM}, sorted. */
    public List<String> timeStrings() {
        List<String> out = new ArrayList<>(times.size());
        for (LocalTime time : times) {
            out.add(formatTime(time));
        }
        return out;
    }

    /**
     * Parses one {@code H:MM}/{@code HH:MM} time (surrounding spaces ignored); {@code 24:00}, {@code
     * 7:5} or {@code ab} are {@code validation.recovery_times}.
     */
    public static LocalTime parseTime(String text) {
        Matcher matcher = text == null ? null : TIME.matcher(text.strip());
        if (matcher == null || !matcher.matches()) {
            throw invalidTime(text);
        }
        int hour = Integer.parseInt(matcher.group(1));
        int minute = Integer.parseInt(matcher.group(2));
        if (hour > 23 || minute > 59) {
            throw invalidTime(text);
        }
        return LocalTime.of(hour, minute);
    }

    public static String formatTime(LocalTime time) {
        return HH_MM.format(time);
    }

    private static List<LocalTime> parseTimes(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            throw timesRequired();
        }
        if (!node.isArray()) {
            throw new ValidationException(ValidationCodes.RECOVERY_TIMES, "recovery.times must be a list of HH:MM");
        }
        List<LocalTime> times = new ArrayList<>();
        for (JsonNode entry : node) {
            if (!entry.isTextual()) {
                throw invalidTime(entry.toString());
            }
            times.add(parseTime(entry.asText()));
        }
        return times;
    }

    private static List<LocalTime> normalizeTimes(List<LocalTime> times) {
        if (times == null || times.isEmpty()) {
            throw timesRequired();
        }
        TreeSet<LocalTime> unique = new TreeSet<>();
        for (LocalTime time : times) {
            if (time == null || time.getSecond() != 0 || time.getNano() != 0) {
                throw invalidTime(String.valueOf(time));
            }
            unique.add(time);
        }
        return List.copyOf(unique);
    }

    private static ZoneId parseZone(JsonNode node, ZoneId defaultZone) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            if (defaultZone == null) {
                throw new IllegalArgumentException("a default time zone is required");
            }
            return defaultZone;
        }
        if (!node.isTextual() || node.asText().isBlank()) {
            throw new ValidationException(TIME_ZONE_CODE, "recovery.time_zone must be a zone id such as Asia/Shanghai");
        }
        try {
            return ZoneId.of(node.asText().strip());
        } catch (DateTimeException e) {
            throw new ValidationException(TIME_ZONE_CODE, "unknown time zone " + StorableText.quote(node.asText()));
        }
    }

    private static int parseInterval(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return DEFAULT_INTERVAL_MINUTES;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw intervalOutOfRange();
        }
        return node.intValue();
    }

    private static void checkInterval(int minutes) {
        if (minutes < MIN_INTERVAL_MINUTES || minutes > MAX_INTERVAL_MINUTES) {
            throw intervalOutOfRange();
        }
    }

    private static ObjectNode parseConfigObject(String text) {
        return Json.readObject(text)
                .orElseThrow(() -> new ValidationException(
                        ValidationCodes.RECOVERY_CONFIG_JSON,
                        "the stored config_json is not a valid JSON object; refusing to overwrite it"));
    }

    private static ValidationException timesRequired() {
        return new ValidationException(
                ValidationCodes.RECOVERY_TIMES_REQUIRED, "scheduled recovery needs at least one HH:MM time");
    }

    private static ValidationException invalidTime(String value) {
        return new ValidationException(
                ValidationCodes.RECOVERY_TIMES, "invalid recovery time (HH:MM): " + StorableText.quote(value));
    }

    private static ValidationException intervalOutOfRange() {
        return new ValidationException(
                ValidationCodes.RECOVERY_PROBE_INTERVAL,
                "recovery.interval_minutes must be an integer " + MIN_INTERVAL_MINUTES + ".." + MAX_INTERVAL_MINUTES);
    }
}
