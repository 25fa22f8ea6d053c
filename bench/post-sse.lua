-- wrk script: one streamed OpenAI chat completion per request (SSE passthrough).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "text/event-stream"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("BENCH_KEY") or "bench")
wrk.body = '{"model":"bench-model","stream":true,"messages":[{"role":"user","content":"Say hello in five words."}]}'
