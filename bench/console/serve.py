#!/usr/bin/env python3
"""Serves a built console at /console/ with the headers of one state-service version, for first-paint
measurements (bench/console/first_paint.py).

  serve.py PORT DIR old   as state-service served it before the console was split (Quarkus static
                          resources: every file uncompressed, Cache-Control public, immutable, max-age=86400)
  serve.py PORT DIR new   as web/ConsoleFiles serves it now: index.html no-cache, assets immutable for a
                          year, the build's precompressed .br / .gz variant when the browser accepts it
"""
import http.server
import mimetypes
import os
import sys

PORT, ROOT, MODE = int(sys.argv[1]), sys.argv[2], sys.argv[3]


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.path.split('?', 1)[0]
        if path == '/console':
            self.send_response(302)
            self.send_header('Location', '/console/')
            self.end_headers()
            return
        if not path.startswith('/console/'):
            self.send_error(404)
            return
        name = path[len('/console/'):] or 'index.html'
        file = os.path.normpath(os.path.join(ROOT, name))
        if not file.startswith(os.path.abspath(ROOT)) or not os.path.isfile(file):
            self.send_error(404)
            return
        ctype = mimetypes.guess_type(file)[0] or 'application/octet-stream'
        if ctype.startswith('text/') or ctype in ('application/javascript', 'application/json'):
            ctype += '; charset=utf-8'
        encoding = None
        if MODE == 'new':
            accepted = self.headers.get('Accept-Encoding', '')
            codings = [c.split(';')[0].strip() for c in accepted.split(',')]
            if 'br' in codings and os.path.isfile(file + '.br'):
                encoding, file = 'br', file + '.br'
            elif 'gzip' in codings and os.path.isfile(file + '.gz'):
                encoding, file = 'gzip', file + '.gz'
            cache = 'no-cache' if name == 'index.html' else 'public, max-age=31536000, immutable'
        else:
            cache = 'public, immutable, max-age=86400'
        with open(file, 'rb') as f:
            body = f.read()
        self.send_response(200)
        self.send_header('Content-Type', ctype)
        self.send_header('Content-Length', str(len(body)))
        self.send_header('Cache-Control', cache)
        if encoding:
            self.send_header('Content-Encoding', encoding)
            self.send_header('Vary', 'Accept-Encoding')
        self.end_headers()
        self.wfile.write(body)


http.server.ThreadingHTTPServer(('127.0.0.1', PORT), Handler).serve_forever()
