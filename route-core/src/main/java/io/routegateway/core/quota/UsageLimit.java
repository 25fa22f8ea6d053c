package io.routegateway.core.quota;

import java.time.Instant;

/**
 * A subscription usage limit an official upstream reported: the account is out of its window and
 * says when the window resets.
 *
 * @param resetsAt when the window resets, always after the {@code now} it was parsed at and at most
 *     {@link UsageLimits#MAX_COOLDOWN} after it
 * @param limitWindow the window that ran out ({@code 5h}, {@code 7d}, {@code 7d_opus}, {@code 1d},
 *     {@code 1m}, …), null when the upstream did not say
 * @param reason the human reason shown in the views, e.g. {@code Claude usage limit reached: 5-hour
 *     window resets at 2026-12-01T23:00:00Z}
 * @param source which signal gave the reset, e.g. {@code anthropic-ratelimit-unified-reset}, {@code
 *     error.resets_at}, {@code RetryInfo.retryDelay}
 */
public record UsageLimit(Instant resetsAt, String limitWindow, String reason, String source) {}
