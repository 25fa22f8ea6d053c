package io.routegateway.demo;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.demo.Replies.Protocol;

/**
 * The usage-limit answer of a subscription account, in the form each platform sends it (429, the
 * reset time in headers and body). The shapes follow what the platforms' own clients parse:
 *
 * <ul>
 *   <li>Codex (ChatGPT backend; OpenAI protocols): headers {@code x-codex-primary-*} for the 5-hour
 *       window and {@code x-codex-secondary-*} for the weekly one ({@code used-percent}, {@code
 *       window-minutes}, {@code reset-after-seconds}, {@code reset-at}), body {@code
 *       {"error":{"type":"usage_limit_reached","plan_type","resets_at","resets_in_seconds"}}}.
 *   <li>Claude (Anthropic Messages): {@code anthropic-ratelimit-unified-status: rejected}, {@code
 *       anthropic-ratelimit-unified-reset} (epoch seconds), {@code
 *       anthropic-ratelimit-unified-representative-claim} ({@code five_hour} / {@code seven_day}),
 *       the per-window {@code -5h-} / {@code -7d-} status and reset, {@code retry-after}; body a
 *       {@code rate_limit_error}.
 *   <li>Gemini (Code Assist): {@code RESOURCE_EXHAUSTED} with a {@code google.rpc.ErrorInfo} (reason
 *       {@code QUOTA_EXHAUSTED}, metadata {@code quotaResetTimeStamp}, {@code quotaResetDelay}) and a
 *       {@code google.rpc.RetryInfo} ({@code retryDelay}).
 * </ul>
 */
final class UsageLimits {

    /** Status, headers and body of one answer. */
    record Answer(int status, Map<String, String> headers, String body) {}

    private UsageLimits() {}

    static Answer answer(Protocol protocol, Instant now, long resetAfterSeconds, String window) {
        boolean weekly = "7d".equals(window);
        Instant resetsAt = now.plusSeconds(resetAfterSeconds);
        long epoch = resetsAt.getEpochSecond();
        Map<String, String> headers = new LinkedHashMap<>();
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        switch (protocol) {
            case ANTHROPIC: {
                String tag = weekly ? "7d" : "5h";
                headers.put("anthropic-ratelimit-unified-status", "rejected");
                headers.put("anthropic-ratelimit-unified-reset", Long.toString(epoch));
                headers.put("anthropic-ratelimit-unified-representative-claim", weekly ? "seven_day" : "five_hour");
                headers.put("anthropic-ratelimit-unified-" + tag + "-status", "rejected");
                headers.put("anthropic-ratelimit-unified-" + tag + "-reset", Long.toString(epoch));
                headers.put("anthropic-ratelimit-unified-" + tag + "-utilization", "1.0");
                headers.put("retry-after", Long.toString(resetAfterSeconds));
                body.put("type", "error")
                        .putObject("error")
                        .put("type", "rate_limit_error")
                        .put(
                                "message",
                                "You've reached your usage limit for this " + (weekly ? "week" : "5-hour window")
                                        + ".");
                return new Answer(429, headers, body.toString());
            }
            case GEMINI: {
                ObjectNode error = body.putObject("error")
                        .put("code", 429)
                        .put(
                                "message",
                                "You have exhausted your capacity on this model. Your quota will reset after "
                                        + resetAfterSeconds + "s.")
                        .put("status", "RESOURCE_EXHAUSTED");
                ArrayNode details = error.putArray("details");
                ObjectNode info = details.addObject()
                        .put("@type", "type.googleapis.com/google.rpc.ErrorInfo")
                        .put("reason", "QUOTA_EXHAUSTED")
                        .put("domain", "cloudcode-pa.googleapis.com");
                info.putObject("metadata")
                        .put("quotaResetDelay", resetAfterSeconds + "s")
                        .put("quotaResetTimeStamp", resetsAt.toString());
                details.addObject()
                        .put("@type", "type.googleapis.com/google.rpc.RetryInfo")
                        .put("retryDelay", resetAfterSeconds + "s");
                return new Answer(429, headers, body.toString());
            }
            default: {
                String prefix = weekly ? "x-codex-secondary-" : "x-codex-primary-";
                headers.put(prefix + "used-percent", "100");
                headers.put(prefix + "window-minutes", weekly ? "10080" : "300");
                headers.put(prefix + "reset-after-seconds", Long.toString(resetAfterSeconds));
                headers.put(prefix + "reset-at", Long.toString(epoch));
                headers.put("x-codex-plan-type", "plus");
                body.putObject("error")
                        .put("type", "usage_limit_reached")
                        .put("message", "The usage limit has been reached")
                        .put("plan_type", "plus")
                        .put("resets_at", epoch)
                        .put("resets_in_seconds", resetAfterSeconds);
                return new Answer(429, headers, body.toString());
            }
        }
    }
}
