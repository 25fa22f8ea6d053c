#!/usr/bin/env python3
"""Warms state-service's event path before a latency measurement: N pause/resume pairs of one model
through the admin API, each applied like an outcome event (row lock, transition, outbox, relay) and
followed by the gateways.

    warm_state.py STATE_PORT ADMIN_TOKEN CREDENTIAL_ID MODEL_KEY PAIRS
"""
import http.client, sys, time


def main():
    port, token, credential, model, pairs = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    began = time.perf_counter()
    for _ in range(pairs):
        for action in ("pause", "resume"):
            conn.request("POST", f"/admin/v1/credentials/{credential}/models/{model}/{action}", body="", headers=headers)
            resp = conn.getresponse()
            resp.read()
            if resp.status >= 300:
                raise SystemExit(f"{action} answered {resp.status}")
    print(f"warm_state: {pairs} pause/resume pairs in {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
