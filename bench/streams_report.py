#!/usr/bin/env python3
"""Writes the "Streaming at scale" section (markdown) from the JSON lines bench/run.sh's
streams_scenarios collected (bench/StreamLoad.java): usage: streams_report.py streams.jsonl FD_LIMIT"""
import json, statistics, sys

path, fd_limit = sys.argv[1], sys.argv[2]
runs, loads = [], []
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
counts = sorted({r["streams"] for r in streams})
frames = streams[0]["frames"] if streams else 0
interval = streams[0]["interval_ms"] if streams else 0
out = [
    "## Streaming at scale",
    "",
    f"N concurrent client streams (OpenAI Chat, each asking the demo upstream for {frames} one-token frames "
    f"{interval} ms apart, then its terminal frames), one keep-alive connection per stream, directly and through "
    "the first gateway, interleaved per round (`bench/StreamLoad.java`, medians over the rounds). Counted: the "
    "streams that ended inside the measured window; CPU is the process's utime+stime (`/proc/PID/stat`) over the "
    "window divided by the SSE frames the clients received in it (the request's own work, routing and usage "
    "record included), and the same without the JIT compiler's threads (C1/C2), which a replica that has run for a "
    "while no longer pays; RSS and open file descriptors are the maxima sampled every 500 ms. The upstream's CPU "
    "per frame is the control: it does the same work on both paths, so a change in it is machine noise. "
    f"File-descriptor limit of the processes: {fd_limit} (through the gateway one process holds 2×N sockets).",
    "",
    "Machine load (`uptime`) at the start of each round: " + "; ".join(sorted(set(loads))) + ".",
    "",
    "| Streams | Path | Completed/s | vs direct | Stream p50 (s) | p99 (s) | p99 vs direct | TTFB p50 (ms) | Frames/s "
    "| Gateway CPU / frame (µs) | without JIT (µs) | Gateway cores | Upstream CPU / frame (µs) | Gateway RSS max (MB) "
    "| Gateway fds max | Errors / short |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
]
for n in counts:
    direct = [r for r in streams if r["streams"] == n and r["label"] == "direct"]
    d_rate, d_p99 = med(direct, "streams_per_s"), med(direct, "stream_p99_s")
    paths = [("direct", direct)] + [(label, [r for r in streams if r["streams"] == n and r["label"] == label])
                                    for label in ("gateway", "gateway-b")]
    for label, rows in paths:
        if not rows:
            continue
        g = label != "direct"
        g_rate, g_p99 = med(rows, "streams_per_s"), med(rows, "stream_p99_s")
        errors = sum(r.get("errors", 0) for r in rows)
        short = sum(r.get("short_streams", 0) for r in rows)
        out.append(
            f"| {n} | {label} | {fmt(med(rows, 'streams_per_s'), 0)} | {ratio(g_rate, d_rate) if g else ''} "
            f"| {fmt(med(rows, 'stream_p50_s'), 3)} | {fmt(med(rows, 'stream_p99_s'), 3)} "
            f"| {ratio(g_p99, d_p99) if g else ''} | {fmt(med(rows, 'ttfb_p50_ms'))} | {fmt(med(rows, 'frames_per_s'), 0)} "
            f"| {fmt(med(rows, 'cpu_us_per_frame', 'gateway'), 1) if g else ''} "
            f"| {fmt(med(rows, 'cpu_us_per_frame_without_jit', 'gateway'), 1) if g else ''} "
            f"| {fmt(med(rows, 'cpu_cores', 'gateway')) if g else ''} "
            f"| {fmt(med(rows, 'cpu_us_per_frame', 'upstream'), 1)} "
            f"| {fmt(med(rows, 'rss_max_mb', 'gateway'), 0) if g else ''} | {fmt(med(rows, 'fds_max', 'gateway'), 0) if g else ''} "
            f"| {errors} / {short} |")
asked = sorted({int(x.split('"asked":')[1].split(",")[0]) for x in open(path) if '"asked":' in x})
capped = [a for a in asked if a not in counts]
if capped:
    out += ["", f"Asked for {', '.join(map(str, capped))} streams: more than the fd limit lets one process hold "
            f"twice over, so the run held {max(counts) if counts else 0} (a replica relaying that many needs a higher limit, docs/deploy.md)."]
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
