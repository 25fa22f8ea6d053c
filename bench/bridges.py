#!/usr/bin/env python3
"""Protocol bridges end to end: per client protocol x upstream protocol, buffered and streamed, time
to first byte of the response body and the gateway's CPU per request, bridged against the native
path to the same upstream protocol. Sequential requests on one keep-alive connection per scenario,
scenarios interleaved round by round; loopback only. Prints a markdown section on stdout and the
raw figures as JSON on stderr.

  bridges.py GATEWAY_PORT GATEWAY_PID KEYS_JSON N ROUNDS

KEYS_JSON maps an upstream protocol (chat, responses, anthropic, gemini) to the access key of a
group whose only credential is of a platform that speaks it (openai relay, codex, claude, gemini).
CPU is the sum over the gateway's threads of /proc/<pid>/task/*/schedstat (nanoseconds), so it
includes the gateway's own background work of the same requests (usage and outcome publishing)."""
import http.client, json, os, sys, time

MODEL = "bridge-model"
PROMPT = "Say hello in five words."
UPSTREAMS = ["chat", "responses", "anthropic", "gemini"]
# the client protocols each upstream's platform serves natively (core.model.Platform)
NATIVE = {"chat": {"chat", "responses"}, "responses": {"chat", "responses"},
          "anthropic": {"anthropic"}, "gemini": {"gemini"}}
NAMES = {"chat": "OpenAI Chat", "responses": "OpenAI Responses", "anthropic": "Anthropic Messages",
         "gemini": "Gemini"}


def request(client, stream):
    if client == "chat":
        return "/v1/chat/completions", {"model": MODEL, "stream": stream,
                                        "messages": [{"role": "user", "content": PROMPT}]}
    if client == "responses":
        return "/v1/responses", {"model": MODEL, "stream": stream, "input": PROMPT}
    if client == "anthropic":
        return "/v1/messages", {"model": MODEL, "max_tokens": 64, "stream": stream,
                                "messages": [{"role": "user", "content": PROMPT}]}
    path = "/v1beta/models/%s:%s" % (MODEL, "streamGenerateContent?alt=sse" if stream else "generateContent")
    return path, {"contents": [{"role": "user", "parts": [{"text": PROMPT}]}]}


def cpu_ns(pid):
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def run(port, pid, key, client, stream, n):
    path, body = request(client, stream)
    payload = json.dumps(body)
    headers = {"Content-Type": "application/json", "Authorization": "Bearer " + key}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    firsts = []
    began_cpu = cpu_ns(pid)
    for i in range(n):
        began = time.perf_counter()
        conn.request("POST", path, body=payload, headers=headers)
        resp = conn.getresponse()
        first = resp.read1(1) if hasattr(resp, "read1") else resp.read(1)
        t_first = time.perf_counter()
        rest = resp.read()
        if resp.status != 200 or not first:
            raise SystemExit("%s stream=%s request %d failed: %d %s" % (client, stream, i, resp.status, rest[:300]))
        firsts.append((t_first - began) * 1e6)
    cpu = (cpu_ns(pid) - began_cpu) / n / 1000.0
    conn.close()
    firsts.sort()
    return {"ttfb_p50_us": firsts[len(firsts) // 2], "ttfb_p99_us": firsts[min(n - 1, int(n * 0.99))],
            "cpu_us": cpu}


def median(values):
    values = sorted(values)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def main():
    port, pid, keys, n, rounds = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    scenarios = []
    for upstream in UPSTREAMS:
        for stream in (False, True):
            scenarios.append((upstream, upstream, stream))  # the native path to this upstream protocol
            for client in UPSTREAMS:
                if client not in NATIVE[upstream]:
                    scenarios.append((client, upstream, stream))
    for client, upstream, stream in scenarios:  # warm-up
        run(port, pid, keys[upstream], client, stream, max(20, n // 2))
    results = {s: [] for s in scenarios}
    for _ in range(rounds):
        for s in scenarios:
            results[s].append(run(port, pid, keys[s[1]], s[0], s[2], n))
    figures = {s: {k: median([r[k] for r in results[s]]) for k in ("ttfb_p50_us", "ttfb_p99_us", "cpu_us")}
               for s in scenarios}
    print(json.dumps({"%s->%s %s" % (c, u, "stream" if st else "buffered"): v for (c, u, st), v in figures.items()}),
          file=sys.stderr)
    out = ["| Client → upstream | Mode | Path | TTFB p50 (µs) | added vs native | TTFB p99 (µs) | Gateway CPU / request (µs) | added vs native |",
           "|---|---|---|---|---|---|---|---|"]
    for client, upstream, stream in scenarios:
        f = figures[(client, upstream, stream)]
        native = figures[(upstream, upstream, stream)]
        bridged = client != upstream
        mode = "stream" if stream else "buffered"
        path = ("frame by frame" if stream else "converted whole") if bridged else "native"
        added_ttfb = "%+.0f" % (f["ttfb_p50_us"] - native["ttfb_p50_us"]) if bridged else ""
        added_cpu = "%+.0f" % (f["cpu_us"] - native["cpu_us"]) if bridged else ""
        out.append("| %s → %s | %s | %s | %.0f | %s | %.0f | %.0f | %s |" % (
            NAMES[client], NAMES[upstream], mode, path, f["ttfb_p50_us"], added_ttfb, f["ttfb_p99_us"],
            f["cpu_us"], added_cpu))
    print("\n".join(out))


if __name__ == "__main__":
    main()
