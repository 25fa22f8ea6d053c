#!/usr/bin/env python3
"""Writes the "Streaming at scale" section (markdown) from the JSON lines bench/run.sh's
streams_scenarios collected (bench/StreamLoad.java): usage: streams_report.py streams.jsonl FD_LIMIT"""
import json, os, statistics, sys

path, fd_limit = sys.argv[1], sys.argv[2]
runs, loads, protocols = [], [], []
for line in open(path):
    line = line.strip()
    if not line:
        continue
    try:
        row = json.loads(line)
    except ValueError:
        continue
    if "uptime" in row:
        loads.append(row["uptime"])
    elif "upstream_after" in row:
        protocols.append(row)
    else:
        runs.append(row)


def med(rows, key, proc=None):
    values = []
    for r in rows:
        v = r.get("processes", {}).get(proc, {}).get(key) if proc else r.get(key)
        if isinstance(v, (int, float)):
            values.append(v)
    return statistics.median(values) if values else None


def fmt(v, digits=2):
    return "n/a" if v is None else f"{v:.{digits}f}"


def ratio(a, b):
    return "n/a" if a is None or not b else f"{a / b:.2f}×"


streams = [r for r in runs if "streams" in r and "error" not in r]
failed = [r for r in runs if "error" in r]
for r in streams:
    r.setdefault("asked", r["streams"])
counts = sorted({r["asked"] for r in streams})
frames = streams[0]["frames"] if streams else 0
interval = streams[0]["interval_ms"] if streams else 0
workers = os.environ.get("NGINX_WORKERS", "?")
h2_streams = os.environ.get("STREAM_H2_MAX_STREAMS", "?")
tls_counts = sorted({r["asked"] for r in streams if r["label"].endswith("-tls")})
# path label -> (shown as, the proxy process whose figures the row shows)
PATHS = [("direct", "direct", None), ("nginx", "nginx", "nginx"), ("vertx", "plain Vert.x proxy", "vertx"),
         ("gateway", "gateway", "gateway"),
         ("gateway-tls", "gateway, upstream HTTP/2 + TLS", "gateway"), ("gateway-b", "gateway-b", "gateway"),
         ("gateway-b-tls", "gateway-b, upstream HTTP/2 + TLS", "gateway")]
out = [
    "## Streaming at scale",
    "",
    f"N concurrent client streams (OpenAI Chat, each asking the demo upstream for {frames} one-token frames "
    f"{interval} ms apart, then its terminal frames), one keep-alive connection per stream, directly, through nginx "
    f"({workers} worker{'s' if workers != '1' else ''}, a plain one-hop proxy: `bench/nginx.conf.template`), through "
    "a plain one-hop Vert.x proxy (`bench/PlainVertxProxy.java`: the gateway's stack with nothing the gateway adds, "
    "the floor of a JVM proxy here) and through the first gateway, interleaved per round (`bench/StreamLoad.java`, medians over the rounds). Counted: "
    "the streams that ended inside the measured window; CPU is the proxy's utime+stime (`/proc/PID/stat`; nginx: "
    "master and workers summed) over the window divided by the SSE frames the clients received in it (the "
    "request's own work, routing and usage record included), and the same without the JIT compiler's threads "
    "(C1/C2), which a replica that has run for a while no longer pays; RSS and open file descriptors are the "
    "maxima sampled every 500 ms (nginx: summed over its processes, so pages the workers share with the master "
    "count twice). The upstream's CPU per frame is the control: it does the same work on every path, so a change "
    "in it is machine noise. "
    f"File-descriptor limit of the processes: {fd_limit} (through the gateway over cleartext HTTP/1.1 one process "
    "holds 2×N sockets).",
    "",
]
if tls_counts:
    out += [
        f"At {', '.join(map(str, tls_counts))} streams the gateway path goes to the demo upstream's TLS port: the "
        "gateway speaks HTTP/2 to it (ALPN), as to production upstreams, multiplexing the streams on a few "
        f"connections (the upstream allows {h2_streams} concurrent streams per connection), so it holds N client "
        "sockets and a few upstream ones. The direct and nginx paths stay cleartext HTTP/1.1 (one upstream "
        "connection per stream), so at those sizes the gateway's figures include TLS and HTTP/2 framing the "
        "others do not pay.",
        "",
    ]
out += [
    "Machine load (`uptime`) at the start of each round: " + "; ".join(sorted(set(loads))) + ".",
    "",
    "| Streams | Path | Completed/s | vs direct | vs nginx | Stream p50 (s) | p99 (s) | p99 vs direct | p99 vs nginx "
    "| TTFB p50 (ms) | Frames/s | Proxy CPU / frame (µs) | without JIT (µs) | Proxy cores | Upstream CPU / frame (µs) "
    "| Proxy RSS max (MB) | Proxy fds max | Errors / short |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
]
capped = []
for n in counts:
    at_n = [r for r in streams if r["asked"] == n]
    direct = [r for r in at_n if r["label"] == "direct"]
    nginx = [r for r in at_n if r["label"] == "nginx"]
    d_rate, d_p99 = med(direct, "streams_per_s"), med(direct, "stream_p99_s")
    n_rate, n_p99 = med(nginx, "streams_per_s"), med(nginx, "stream_p99_s")
    for label, shown, proc in PATHS:
        rows = [r for r in at_n if r["label"] == label]
        if not rows:
            continue
        held = min(r["streams"] for r in rows)
        if held != n:
            capped.append(f"{shown}: {held} of {n}")
        rate, p99 = med(rows, "streams_per_s"), med(rows, "stream_p99_s")
        g = label.startswith("gateway") or label == "vertx"
        p = proc is not None
        errors = sum(r.get("errors", 0) for r in rows)
        short = sum(r.get("short_streams", 0) for r in rows)
        out.append(
            f"| {held if held == n else f'{held} of {n}'} | {shown} | {fmt(rate, 0)} "
            f"| {ratio(rate, d_rate) if p else ''} | {ratio(rate, n_rate) if g else ''} "
            f"| {fmt(med(rows, 'stream_p50_s'), 3)} | {fmt(p99, 3)} "
            f"| {ratio(p99, d_p99) if p else ''} | {ratio(p99, n_p99) if g else ''} "
            f"| {fmt(med(rows, 'ttfb_p50_ms'))} | {fmt(med(rows, 'frames_per_s'), 0)} "
            f"| {fmt(med(rows, 'cpu_us_per_frame', proc), 1) if p else ''} "
            f"| {fmt(med(rows, 'cpu_us_per_frame_without_jit', proc), 1) if p else ''} "
            f"| {fmt(med(rows, 'cpu_cores', proc)) if p else ''} "
            f"| {fmt(med(rows, 'cpu_us_per_frame', 'upstream'), 1)} "
            f"| {fmt(med(rows, 'rss_max_mb', proc), 0) if p else ''} | {fmt(med(rows, 'fds_max', proc), 0) if p else ''} "
            f"| {errors} / {short} |")
# the counters run since the upstream started: each round's reading includes the ones before it, so
# only the newest reading per scenario is reported
newest = {}
for p in protocols:
    newest[(p["upstream_after"], p["asked"])] = p
for p in newest.values():
    versions = p.get("requests_by_version") or {}
    tls = p.get("tls_connections") or {}
    out += ["", f"The upstream after the {p['upstream_after']} run at {p['asked']} streams (counters since it started, "
            f"warm-up included): {versions.get('HTTP_2', 0)} requests over HTTP/2 and {versions.get('HTTP_1_1', 0)} over "
            f"HTTP/1.1 (every path); {tls.get('opened', 0)} connections opened to its TLS port, at most "
            f"{tls.get('open_max', 0)} open at once."]
if capped:
    out += ["", f"Held fewer streams than asked (the fd limit, {fd_limit}, lets one process hold that many sockets): "
            f"{'; '.join(capped)} (a replica relaying more over cleartext HTTP/1.1 needs a higher limit, docs/deploy.md)."]
bodies = [r for r in runs if "body_bytes" in r and "error" not in r]
if bodies:
    def per_kb(small, large):
        s_cpu, l_cpu = med(small, "cpu_us_per_request", "gateway"), med(large, "cpu_us_per_request", "gateway")
        s_kb, l_kb = med(small, "body_bytes"), med(large, "body_bytes")
        if None in (s_cpu, l_cpu, s_kb, l_kb) or l_kb <= s_kb:
            return None
        return (l_cpu - s_cpu) / ((l_kb - s_kb) / 1024)

    by = {label: [r for r in bodies if r["label"] == label]
          for label in ("body-small", "body-large", "body-small-b", "body-large-b", "body-large-direct")}
    out += [
        "",
        "Large bodies: 4 connections posting buffered OpenAI Chat requests one after another, a prompt of plain words "
        "of the size given, through the first gateway and directly (medians over the rounds). Per KB: the large "
        "request's CPU minus the small one's, over the difference in size.",
        "",
        "| Body | Path | Requests/s | Gateway CPU / request (µs) | Gateway CPU / KB (µs) | Upstream CPU / request (µs) | Gateway RSS max (MB) | Errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    kb = {"body-large": per_kb(by["body-small"], by["body-large"]),
          "body-large-b": per_kb(by["body-small-b"], by["body-large-b"])}
    names = {"body-small": "gateway", "body-large": "gateway", "body-small-b": "gateway-b", "body-large-b": "gateway-b",
             "body-large-direct": "direct"}
    for key, rows in by.items():
        if not rows:
            continue
        label = names[key]
        g = label != "direct"
        out.append(
            f"| {fmt(med(rows, 'body_bytes') / 1024, 0)} KB | {label} | {fmt(med(rows, 'requests_per_s'), 0)} "
            f"| {fmt(med(rows, 'cpu_us_per_request', 'gateway'), 0) if g else ''} "
            f"| {fmt(kb.get(key), 2) if key in kb else ''} "
            f"| {fmt(med(rows, 'cpu_us_per_request', 'upstream'), 0)} "
            f"| {fmt(med(rows, 'rss_max_mb', 'gateway'), 0) if g else ''} | {sum(r.get('errors', 0) for r in rows)} |")
if failed:
    out += ["", "Not measured: " + ", ".join(f"{r['label']} ({r['error']})" for r in failed) + "."]
print("\n".join(out))
