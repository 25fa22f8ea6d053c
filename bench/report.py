#!/usr/bin/env python3
"""Writes the benchmark report (markdown) from the figures bench/run.sh measured."""
import json, os, platform, subprocess, sys
from datetime import datetime, timezone

(out, d_json, n_json, g_json, d_sse, n_sse, g_sse, lat_direct, lat_gateway, ttft_direct, ttft_gateway,
 rss_max, lag, jmh, raw_runs, duration, rounds, pool, drain_seconds, warm_actions) = sys.argv[1:]

def f(x):
    return float(x) if x not in ("", None) else 0.0

def ratio(a, b):
    return f"{f(a) / f(b):.2f}×" if f(b) else "n/a"

# the plain Vert.x proxy (bench/PlainVertxProxy.java): the floor of a JVM proxy on the gateway's stack
v_json, v_sse = os.environ.get("VERTX_JSON", ""), os.environ.get("VERTX_SSE", "")
v_runs = os.environ.get("VERTX_RUNS", "|")

ld, lg = (lat_direct.split() + ["0", "0"])[:2], (lat_gateway.split() + ["0", "0"])[:2]
td, tg = json.loads(ttft_direct), json.loads(ttft_gateway)
try:
    lag_figures = json.loads(lag)
except ValueError:
    lag_figures = {"error": lag}

def verdict(ok):
    return "met" if ok else "**not met**"

if "p99_ms" in lag_figures:
    lag_text = (f"p50 {lag_figures['p50_ms']}, p99 {lag_figures['p99_ms']} (min {lag_figures['min_ms']}, "
                f"max {lag_figures['max_ms']}, {lag_figures['samples']} samples)")
    lag_verdict = verdict(lag_figures["p99_ms"] <= 50)
else:
    lag_text, lag_verdict = str(lag_figures), "**not measured**"
view = lag_figures.get("view")
if view:
    # B's own timer of each sample: the same round trip, without the polling's granularity
    lag_text += (f"; as B's view times it: p50 {view['p50_ms']}, p99 {view['p99_ms']} (min {view['min_ms']}, "
                 f"max {view['max_ms']}, {view['samples']} samples)")
hop_names = {"outcome_delivery": "A's send → state-service takes it up", "apply": "the apply transaction",
             "publication": "commit → broker's acknowledgement", "snapshot_delivery": "snapshot sent → B's view",
             "outcome_propagation": "the whole way through state-service, A's send → B's view (B's timer)",
             "peer_outcome": "the short way, A's send → B read it from route.outcomes and its view holds the failure (B's timer)"}
hop_lines = [f"- {hop_names.get(hop, hop)}: mean {h['mean_ms']} ms over {h['count']}, p99 {h['p99_ms']} ms, max {h['max_ms']} ms"
             for hop, h in lag_figures.get("hops", {}).items()]

cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True, text=True).stdout.strip()
java = subprocess.run(["sh", "-c", "java -version 2>&1 | head -1"], capture_output=True, text=True).stdout.strip()
mem = subprocess.run(["sh", "-c", "free -g | awk '/Mem:/ {print $2}'"], capture_output=True, text=True).stdout.strip()
runs = raw_runs.split("|")
added_p50 = f(lg[0]) - f(ld[0])
added_p99 = f(lg[1]) - f(ld[1])
added_ttft = f(tg["ttfb_p50_us"]) - f(td["ttfb_p50_us"])

lines = [
    "# Performance",
    "",
    f"Latest run of `bench/run.sh` ({datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}), "
    f"{rounds} interleaved rounds of {duration} s per run, loopback only. Machine: {os.cpu_count()} cores ({cpu}), "
    f"{mem} GiB, {platform.system()} {platform.release()}, {java}. Absolute numbers on these shared machines move "
    "by 2–3×; the ratios are measured in the same run.",
    "",
    "Set-up: demo-upstream (Vert.x) as the upstream, nginx-light as a plain one-hop proxy, a plain one-hop Vert.x "
    "proxy (`bench/PlainVertxProxy.java`: the gateway's stack with nothing the gateway adds, NIO, the gateway's heap "
    "options) as the floor of a JVM proxy here, and the gateway with "
    f"everything on: AccessKey auth, selection over a {pool}-credential pool (3 priority tiers), classification, "
    "outcome + usage events published to a real Kafka broker, state-service consuming them into PostgreSQL, "
    "a second gateway replica following the state topic and its peer's failures on route.outcomes. wrk -t2 -c50 (throughput), wrk -t1 -c1 (latency).",
    "",
    "| Figure | Direct | nginx | plain Vert.x | Gateway | Gateway / direct | Gateway / nginx | Gateway / plain Vert.x | Target |",
    "|---|---|---|---|---|---|---|---|---|",
    f"| JSON throughput, 50 conns (req/s, median) | {f(d_json):.0f} | {f(n_json):.0f} | {f(v_json):.0f} | {f(g_json):.0f} | {ratio(g_json, d_json)} | {ratio(g_json, n_json)} | {ratio(g_json, v_json)} | ≥ 0.5× nginx: {verdict(f(n_json) and f(g_json) / f(n_json) >= 0.5)} |",
    f"| SSE throughput, 50 conns (req/s, median) | {f(d_sse):.0f} | {f(n_sse):.0f} | {f(v_sse):.0f} | {f(g_sse):.0f} | {ratio(g_sse, d_sse)} | {ratio(g_sse, n_sse)} | {ratio(g_sse, v_sse)} | ≥ 0.5× nginx: {verdict(f(n_sse) and f(g_sse) / f(n_sse) >= 0.5)} |",
    f"| Latency p50, 1 conn (µs) | {f(ld[0]):.0f} | | | {f(lg[0]):.0f} | added {added_p50:.0f} µs | | | ≤ 100 µs added: {verdict(added_p50 <= 100)} |",
    f"| Latency p99, 1 conn (µs) | {f(ld[1]):.0f} | | | {f(lg[1]):.0f} | added {added_p99:.0f} µs | | | |",
    f"| Time to first byte, SSE p50 (µs) | {td['ttfb_p50_us']} | | | {tg['ttfb_p50_us']} | added {added_ttft:.0f} µs | | | ≤ 1 ms added: {verdict(added_ttft <= 1000)} |",
    f"| Time to first byte, SSE p99 (µs) | {td['ttfb_p99_us']} | | | {tg['ttfb_p99_us']} | | | | |",
    f"| Gateway RSS under load (MB, max) | | | | {rss_max} | | | | ≤ 300 MB: {verdict(f(rss_max) <= 300)} |",
    f"| State propagation lag gateway A → gateway B (route.outcomes, or state-service's snapshot if first) (ms) | | | | {lag_text} | | | | p99 ≤ 50 ms: {lag_verdict} |",
    "",
    "Per-round req/s (direct JSON | nginx JSON | gateway JSON | direct SSE | nginx SSE | gateway SSE; then plain "
    "Vert.x JSON | plain Vert.x SSE):",
    "",
    "```",
    *runs,
    *v_runs.split("|"),
    "```",
    "",
    "Propagation lag: per sample, replica A meets a 429 on the preferred credential for a model of its own and fails "
    "over; the clock starts when A has answered and stops when replica B, polled on one connection, first routes that "
    "model around the credential (`bench/propagation.py`). The one-connection figures and the lag are measured after "
    f"state-service had drained the usage backlog the throughput rounds left ({drain_seconds} s); the lag after "
    f"{warm_actions} admin pause/resume pairs had also run its "
    "apply → outbox → relay path (`bench/warm_state.py`): that path only runs for failures, and a cold JVM takes "
    "several times longer per event (see below).",
    *(["", "Where the lag goes, per hop (the services' timers; p99 and max over their last minutes, warm-up included):",
       ""] + hop_lines if hop_lines else []),
    "",
    "JMH, `Router.route` over 1,000 credentials × 5 models (`bench/jmh.sh`; target ≤ 5 µs = 5,000 ns/op):",
    "",
    "```",
    jmh,
    "```",
]
# the protocol-bridge section bench/run.sh wrote (bench/bridges.py), when there is one
bridges = os.environ.get("BRIDGES_SECTION")
if bridges and os.path.exists(bridges):
    lines += ["", open(bridges).read().rstrip()]
# the concurrent-streams and large-body section (bench/streams_report.py), when there is one
streams = os.environ.get("STREAMS_SECTION")
if streams and os.path.exists(streams):
    lines += ["", open(streams).read().rstrip()]
analysis = os.path.join(os.path.dirname(os.path.abspath(__file__)), "analysis.md")
if os.path.exists(analysis):
    lines += ["", open(analysis).read().rstrip()]
with open(out, "w") as fh:
    fh.write("\n".join(lines) + "\n")
