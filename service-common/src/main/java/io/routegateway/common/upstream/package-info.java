/**
 * The one upstream HTTP client of the project, used by gateway forwarding and by recovery model
 * tests alike ("no second implementation").
 *
 * <p>Usage: build the request with route-core's {@code UpstreamRequests.forward(...)} or {@code
 * UpstreamRequests.modelTest(...)}, then
 *
 * <ul>
 *   <li>{@link io.routegateway.common.upstream.UpstreamClient#exchange} — send and read the whole
 *       body; returns {@link io.routegateway.common.upstream.UpstreamResponse.Complete} with status,
 *       headers, body, the {@code UpstreamOutcome} and the client echo; its verdict for the
 *       credential that sent it is {@code Complete.verdict(kind, platform, now)} (route-core's
 *       {@code AttemptVerdict}). Model tests pass {@code modelTest = true} to get the {@code
 *       model_test_status} / {@code model_test} labels.
 *   <li>{@link io.routegateway.common.upstream.UpstreamClient#open} — streaming passthrough: a
 *       non-2xx response, or one that breaks or ends before its first body byte, comes back {@code
 *       Complete}; a 2xx with a body comes back {@link
 *       io.routegateway.common.upstream.UpstreamResponse.Streaming} once the first chunk is in,
 *       paused, so the caller can judge it and fail over ({@code cancel()}) or commit ({@code
 *       start(onChunk, onEnd)}).
 * </ul>
 *
 * Timeouts come with each call ({@link io.routegateway.common.upstream.UpstreamTimeouts}): connect
 * and read gap, no total deadline. Failures never fail the {@code Uni}: they are the outcome's
 * {@code transportError}, naming which ceiling fired and its setting.
 */
package io.routegateway.common.upstream;
