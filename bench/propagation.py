#!/usr/bin/env python3
"""State propagation lag between two gateway replicas, measured from outside (loopback only).

    propagation.py GATEWAY_A_PORT GATEWAY_B_PORT UPSTREAM_PORT ACCESS_KEY PREFERRED_SECRET SAMPLES [FIRST_MODEL]

The pool behind ACCESS_KEY (seeded by bench/run.sh) has a preferred credential (priority 0, no
retries, cooldown on) whose upstream account key is PREFERRED_SECRET and a fallback (priority 1);
both map lag-m<i> -> lag-u<i>. Per sample, with a model of its own (lag-m<FIRST_MODEL> onwards, so a
warm-up run and a measured run never share a model):
  1. the demo upstream answers 429 once for that model on the preferred account, then 400 (a
     client error, returned as it is and recorded nowhere, so polling replica B teaches B nothing),
     set in one control call before the sample starts;
  2. one request through replica A meets the 429 and fails over (200) -> the clock starts when A
     has answered (A has applied the outcome locally and published it to route.outcomes);
  3. replica B is polled on one keep-alive connection, POLL_SLEEP_S (default 0.001) apart, until it answers 200 (it avoids the cooling
     model: state-service applied the event, published the snapshot, B consumed it).
SAMPLE_PAUSE_S (default 0) waits that long after each sample before the next one starts.
With CLEAR_MODELS_URL (state-service's admin POST .../credentials/<preferred>/models/clear-all) and
ADMIN_TOKEN, the preferred credential's model states are cleared after each sample, so every sample
is one failure on a credential with no other model cooling; without it the cooling models add up
(sample i meets i-1 of them, each read, written into the snapshot and signed with it).
Prints {"samples", "p50_ms", "p99_ms", "min_ms", "max_ms", "polls"} as JSON on stdout. With
STATE_METRICS_URL and REPLICA_B_METRICS_URL (the management /q/metrics of state-service and replica
B) it adds "hops": per hop of the round trip, the mean over the samples (from the timers' sums and
counts before and after) and the p99 and max the timers report at the end (their window of the last
minutes: the warm-up samples are in it too):
  outcome_delivery  gateway A's send of the outcome -> state-service takes it up (state.events.delivery)
  apply             state-service's transaction (state.events.apply)
  publication       the commit -> the broker's acknowledgement of the snapshot (state.outbox.publication.lag)
  snapshot_delivery state-service's send of the snapshot -> replica B's view holds it
                    (gateway.view.state.delivery; overlaps "publication" by the acknowledgement's time)
  outcome_propagation  the whole way, timed by replica B itself: gateway A's send of the outcome ->
                    B's view holds the snapshot it caused (gateway.view.outcome.propagation, from the
                    snapshot's outcome_sent_at)
  peer_outcome      the short way (gateway.view.peer-outcomes): gateway A's send of the outcome ->
                    B read it from route.outcomes and its view holds the failure
                    (gateway.view.peer.outcome.delay); absent on a build without it
With REPLICA_B_METRICS_URL it also reads B's two timers of the whole way after every sample (each
sum grows by exactly that sample's time) and adds "view": p50/p99/min/max of the per-sample times of
whichever way reached B's view first, the same round trip without the polling's granularity or the
poll's own request.
"""
import http.client, json, os, re, sys, time, urllib.request

HOPS = {
    "outcome_delivery": ("STATE_METRICS_URL", "state_events_delivery_seconds"),
    "apply": ("STATE_METRICS_URL", "state_events_apply_seconds"),
    "publication": ("STATE_METRICS_URL", "state_outbox_publication_lag_seconds"),
    "snapshot_delivery": ("REPLICA_B_METRICS_URL", "gateway_view_state_delivery_seconds"),
    "outcome_propagation": ("REPLICA_B_METRICS_URL", "gateway_view_outcome_propagation_seconds"),
    "peer_outcome": ("REPLICA_B_METRICS_URL", "gateway_view_peer_outcome_delay_seconds"),
}
# B's timers of the whole way: through state-service's snapshot, and straight from route.outcomes
SNAPSHOT_TIMER = "gateway_view_outcome_propagation_seconds"
PEER_TIMER = "gateway_view_peer_outcome_delay_seconds"


def view_timer():
    """{timer: (count, sum in seconds)} of replica B's two whole-way timers, or None without its URL."""
    url = os.environ.get("REPLICA_B_METRICS_URL")
    if not url:
        return None
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    return {timer: (sample(text, timer + "_count") or 0, sample(text, timer + "_sum") or 0)
            for timer in (SNAPSHOT_TIMER, PEER_TIMER)}


def view_sample(before):
    """This sample's time in B's view (ms), by whichever way got there first: waits up to 2 s for
    the snapshot's timer (every sample's failure reaches B that way too), then reads both."""
    deadline = time.perf_counter() + 2
    while True:
        after = view_timer()
        if after[SNAPSHOT_TIMER][0] > before[SNAPSHOT_TIMER][0] or time.perf_counter() > deadline:
            break
        time.sleep(0.01)
    times = []
    for timer in (SNAPSHOT_TIMER, PEER_TIMER):
        recorded = after[timer][0] - before[timer][0]
        if recorded > 0:
            # more than one only if another outcome of the pool changed state meanwhile: their mean
            times.append((after[timer][1] - before[timer][1]) * 1000 / recorded)
    return min(times) if times else None


def scrape():
    """{env name: Prometheus text}, for the metrics URLs that are set."""
    texts = {}
    for env in {env for env, _ in HOPS.values()}:
        url = os.environ.get(env)
        if url:
            with urllib.request.urlopen(url, timeout=10) as response:
                texts[env] = response.read().decode()
    return texts


def sample(text, name):
    """The value of an unlabelled sample, or of the one whose labels are given in name."""
    match = re.search("^" + re.escape(name) + r"(?:\{[^}]*\})? (\S+)$", text, re.M)
    return float(match.group(1)) if match else None


def hops(before, after):
    result = {}
    for hop, (env, timer) in HOPS.items():
        if env not in before or env not in after:
            continue
        count = (sample(after[env], timer + "_count") or 0) - (sample(before[env], timer + "_count") or 0)
        total = (sample(after[env], timer + "_sum") or 0) - (sample(before[env], timer + "_sum") or 0)
        p99 = sample(after[env], timer + '{quantile="0.99"}')
        peak = sample(after[env], timer + "_max")
        result[hop] = {
            "count": int(count),
            "mean_ms": round(total * 1000 / count, 1) if count else None,
            "p99_ms": None if p99 is None else round(p99 * 1000, 1),
            "max_ms": None if peak is None else round(peak * 1000, 1),
        }
    return result


def request(conn, method, path, body=None, headers=None):
    conn.request(method, path, body=body, headers=headers or {})
    resp = conn.getresponse()
    return resp.status, resp.read()


def chat(conn, key, model):
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": "lag probe"}]})
    return request(conn, "POST", "/v1/chat/completions", body,
                   {"Content-Type": "application/json", "Authorization": "Bearer " + key})


def behave(conn, account, status, then_status, model):
    """The account answers `status` once for `model`, then `then_status`."""
    status_code, _ = request(conn, "PUT", "/_control/accounts/" + account,
                             json.dumps({"mode": "status", "status": status, "then_status": then_status,
                                         "model": model}),
                             {"Content-Type": "application/json"})
    if status_code != 200:
        raise SystemExit(f"demo upstream control answered {status_code}")


def clear_models():
    url = os.environ.get("CLEAR_MODELS_URL")
    if not url:
        return
    req = urllib.request.Request(url, data=b"", method="POST",
                                 headers={"Authorization": "Bearer " + os.environ["ADMIN_TOKEN"]})
    with urllib.request.urlopen(req, timeout=10) as response:
        if response.status != 200:
            raise SystemExit(f"clearing the models answered {response.status}")
    time.sleep(0.3)  # the cleared snapshot reaches both replicas before the next sample


def percentile(sorted_values, p):
    rank = max(1, -(-p * len(sorted_values) // 100))  # nearest rank
    return sorted_values[int(rank) - 1]


def main():
    port_a, port_b, upstream_port = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    key, preferred, samples = sys.argv[4], sys.argv[5], int(sys.argv[6])
    first = int(sys.argv[7]) if len(sys.argv) > 7 else 1
    replica_a = http.client.HTTPConnection("127.0.0.1", port_a, timeout=30)
    replica_b = http.client.HTTPConnection("127.0.0.1", port_b, timeout=30)
    control = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=30)
    lags, views, polls = [], [], 0
    before = scrape()
    try:
        for i in range(first, first + samples):
            model, upstream_model = f"lag-m{i}", f"lag-u{i}"
            behave(control, preferred, 429, 400, upstream_model)
            timer_before = view_timer()
            status, body = chat(replica_a, key, model)
            seen = time.perf_counter()
            if status != 200:
                raise SystemExit(f"sample {i}: replica A answered {status}: {body[:200]!r}")
            while True:
                status, body = chat(replica_b, key, model)
                now = time.perf_counter()
                polls += 1
                if status == 200:
                    lags.append((now - seen) * 1000)
                    break
                if status != 400:
                    raise SystemExit(f"sample {i}: replica B answered {status}: {body[:200]!r}")
                if now - seen > 30:
                    raise SystemExit(f"sample {i}: replica B still picks the cooling model after 30 s")
                time.sleep(float(os.environ.get("POLL_SLEEP_S", "0.001")))
            if timer_before is not None:
                seen_by_view = view_sample(timer_before)
                if seen_by_view is not None:
                    views.append(seen_by_view)
            clear_models()
            time.sleep(float(os.environ.get("SAMPLE_PAUSE_S", "0")))
    finally:
        request(control, "DELETE", "/_control/accounts/" + preferred)
    lags.sort()
    report = {"samples": len(lags), "p50_ms": round(percentile(lags, 50), 1),
              "p99_ms": round(percentile(lags, 99), 1), "min_ms": round(lags[0], 1),
              "max_ms": round(lags[-1], 1), "polls": polls}
    breakdown = hops(before, scrape())
    if breakdown:
        report["hops"] = breakdown
    if views:
        views.sort()
        report["view"] = {"samples": len(views), "p50_ms": round(percentile(views, 50), 1),
                          "p99_ms": round(percentile(views, 99), 1), "min_ms": round(views[0], 1),
                          "max_ms": round(views[-1], 1)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
