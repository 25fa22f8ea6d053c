-- wrk script: one OpenAI chat completion per request (buffered JSON).
-- The access key comes from the environment: BENCH_KEY (upstream key when direct).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("BENCH_KEY") or "bench")
wrk.body = '{"model":"bench-model","messages":[{"role":"user","content":"Say hello in five words."}]}'
