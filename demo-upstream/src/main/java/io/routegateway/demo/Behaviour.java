package io.routegateway.demo;

import java.util.Locale;

/**
 * How one demo account answers, switchable at run time through the control API.
 *
 * @param mode what to do
 * @param status the HTTP status for {@link Mode#STATUS} (e.g. 429, 500, 401) and {@link Mode#ECHO}
 * @param model only requests for this upstream model misbehave; null = every model
 * @param delayMs added latency before answering (0 = none)
 * @param cutAfterFrames for {@link Mode#STREAM_CUT}: data frames sent before the connection is cut
 *     (0 = cut before the first chunk)
 * @param message for {@link Mode#ERROR_BODY}: the error envelope's message (null = a fixed text),
 *     e.g. to show how a console renders an upstream text with markup
 * @param resetAfterSeconds for {@link Mode#USAGE_LIMIT}: when the reported window resets, seconds
 *     from the answer
 * @param window for {@link Mode#USAGE_LIMIT}: the window that ran out, {@code 5h} or {@code 7d}
 * @param thenStatus for {@link Mode#STATUS}: when not 0, only the first matching request gets {@code
 *     status}, every later one {@code thenStatus} (e.g. 429 once, then 400: a failure to record, then
 *     answers that teach a gateway nothing), switched without a second control call
 */
public record Behaviour(
        Mode mode,
        int status,
        String model,
        long delayMs,
        int cutAfterFrames,
        String message,
        long resetAfterSeconds,
        String window,
        int thenStatus) {

    public static final Behaviour HEALTHY = new Behaviour(Mode.HEALTHY, 200, null, 0, 0);

    public Behaviour(Mode mode, int status, String model, long delayMs, int cutAfterFrames) {
        this(mode, status, model, delayMs, cutAfterFrames, null);
    }

    public Behaviour(Mode mode, int status, String model, long delayMs, int cutAfterFrames, String message) {
        this(mode, status, model, delayMs, cutAfterFrames, message, 0, null, 0);
    }

    /** What answers after this behaviour answered once: itself, or the status it turns into. */
    public Behaviour afterAnswer() {
        return thenStatus == 0
                ? this
                : new Behaviour(
                        mode, thenStatus, model, delayMs, cutAfterFrames, message, resetAfterSeconds, window, 0);
    }

    /** A subscription usage limit that resets {@code resetAfterSeconds} after each answer ({@code 5h} or {@code 7d}). */
    public static Behaviour usageLimit(long resetAfterSeconds, String window) {
        return new Behaviour(Mode.USAGE_LIMIT, 429, null, 0, 0, null, resetAfterSeconds, window, 0);
    }

    public enum Mode {
        /** A normal, complete answer. */
        HEALTHY,
        /** The configured status with an error body (429 rate limit, 5xx, 401/403 ...). */
        STATUS,
        /** HTTP 200 whose body is an error envelope (a semantic failure). */
        ERROR_BODY,
        /** HTTP 200 with a quota-exhausted error (the account must flip to error). */
        QUOTA,
        /** Accept the request and never send a byte (the gateway's read-gap timeout fires). */
        STALL,
        /** Stream some frames, then cut the connection without a terminal event. */
        STREAM_CUT,
        /**
         * The configured status (400, 404, 422) with an error that quotes the client's input the
         * way the protocol's vendor does: the model, unknown top-level fields, the prompt text and
         * tool names (see {@link Echoes}).
         */
        ECHO,
        /**
         * A subscription account's usage window ran out: 429 with the platform's own signal of when
         * it resets (see {@link UsageLimits}), per the protocol the request came in.
         */
        USAGE_LIMIT;

        public static Mode parse(String value) {
            return valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    /** Whether this behaviour applies to a request for {@code upstreamModel}. */
    public boolean appliesTo(String upstreamModel) {
        return model == null || model.equals(upstreamModel);
    }
}
