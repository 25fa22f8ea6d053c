#!/usr/bin/env python3
"""Time to first byte of the response body and total latency for N sequential requests on one
keep-alive connection. Prints p50/p99 in microseconds as JSON. Loopback only."""
import http.client, json, sys, time

def measure(port, key, n, stream):
    body = json.dumps({"model": "bench-model", "stream": stream,
                       "messages": [{"role": "user", "content": "Say hello in five words."}]})
    headers = {"Content-Type": "application/json", "Authorization": "Bearer " + key}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    firsts, totals = [], []
    for i in range(n):
        began = time.perf_counter()
        conn.request("POST", "/v1/chat/completions", body=body, headers=headers)
        resp = resp_first = conn.getresponse()
        first = resp.read1(1) if hasattr(resp, "read1") else resp.read(1)
        t_first = time.perf_counter()
        resp.read()
        t_total = time.perf_counter()
        if resp.status != 200 or not first:
            raise SystemExit(f"request {i} failed: {resp.status}")
        firsts.append((t_first - began) * 1e6)
        totals.append((t_total - began) * 1e6)
    conn.close()
    def pct(values, p):
        values = sorted(values)
        return round(values[min(len(values) - 1, int(len(values) * p))], 1)
    return {"n": n, "ttfb_p50_us": pct(firsts, 0.5), "ttfb_p99_us": pct(firsts, 0.99),
            "total_p50_us": pct(totals, 0.5), "total_p99_us": pct(totals, 0.99)}

if __name__ == "__main__":
    port, key, n, stream = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4] == "stream"
    measure(port, key, min(50, n), stream)  # warm-up
    print(json.dumps(measure(port, key, n, stream)))
