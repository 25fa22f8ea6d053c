-- wrk script: POST a small chat completion with the AccessKey in LOAD_KEY (ignored by the mock).
wrk.method = "POST"
wrk.body = '{"model":"m","messages":[{"role":"user","content":"hi"}]}'
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer " .. (os.getenv("LOAD_KEY") or "none")
