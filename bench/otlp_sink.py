#!/usr/bin/env python3
"""A do-nothing OTLP/HTTP trace receiver for bench/tracing.sh: answers every POST /v1/traces with 200
and an empty ExportTraceServiceResponse, counting requests and bytes, so that the gateway's exporter
does its real work (batching, protobuf encoding, the HTTP send) without a collector installed.

    python3 bench/otlp_sink.py PORT   # GET /stats -> {"requests": n, "bytes": n}
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

stats = {"requests": 0, "bytes": 0}


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        self.rfile.read(length)
        stats["requests"] += 1
        stats["bytes"] += length
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()

    def do_GET(self):
        body = json.dumps(stats).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()
