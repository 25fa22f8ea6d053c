#!/usr/bin/env python3
"""First paint and JS transferred for the console's first page (the sign-in page), in the browser
the e2e console tests drive: Debian's headless Chromium through chromedriver, a fresh profile per
load (cold cache), the e2e suite's Chromium flags, and the same figures script as ConsoleQualityIT.

  first_paint.py URL RUNS [KBIT]   KBIT: throttle the network to this many kbit/s (CDP), 20 ms latency

Prints one JSON line per run and the median of each figure. Report figures, never assert them.
"""
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

URL, RUNS = sys.argv[1], int(sys.argv[2])
KBIT = int(sys.argv[3]) if len(sys.argv) > 3 else 0
PORT = 9515 + (hash(URL) % 400)

FIGURES = ("var paint = {};"
           "performance.getEntriesByType('paint').forEach(e => paint[e.name] = Math.round(e.startTime));"
           "var js = performance.getEntriesByType('resource').filter(e => e.name.endsWith('.js'));"
           "var nav = performance.getEntriesByType('navigation')[0];"
           "return {firstPaintMs: paint['first-paint'] || -1, firstContentfulPaintMs: paint['first-contentful-paint'] || -1,"
           " domContentLoadedMs: nav ? Math.round(nav.domContentLoadedEventEnd) : -1,"
           " scripts: js.length, jsTransferred: js.reduce((s, e) => s + e.transferSize, 0),"
           " jsDecoded: js.reduce((s, e) => s + e.decodedBodySize, 0)};")


def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f'http://127.0.0.1:{PORT}{path}', data=data, method=method,
                                     headers={'Content-Type': 'application/json'})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read() or b'null')


driver = subprocess.Popen(['/usr/bin/chromedriver', f'--port={PORT}'], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
try:
    for _ in range(100):
        try:
            call('GET', '/status')
            break
        except OSError:
            time.sleep(0.1)
    results = []
    for run in range(RUNS):
        with tempfile.TemporaryDirectory(prefix='console-paint-') as profile:
            args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                    '--disable-background-networking', '--disable-component-update', '--disable-sync',
                    '--disable-dev-shm-usage', '--window-size=1600,1000', f'--user-data-dir={profile}']
            session = call('POST', '/session', {'capabilities': {'alwaysMatch': {
                'browserName': 'chrome', 'goog:chromeOptions': {'binary': '/usr/bin/chromium', 'args': args}}}})
            sid = session['value']['sessionId']
            try:
                if KBIT:
                    call('POST', f'/session/{sid}/goog/cdp/execute', {'cmd': 'Network.enable', 'params': {}})
                    call('POST', f'/session/{sid}/goog/cdp/execute', {'cmd': 'Network.emulateNetworkConditions', 'params': {
                        'offline': False, 'latency': 20, 'downloadThroughput': KBIT * 1000 / 8,
                        'uploadThroughput': KBIT * 1000 / 8}})
                call('POST', f'/session/{sid}/url', {'url': URL})
                # the sign-in field is on screen
                for _ in range(600):
                    shown = call('POST', f'/session/{sid}/execute/sync', {
                        'script': "return !!document.getElementById('admin-token')", 'args': []})['value']
                    if shown:
                        break
                    time.sleep(0.1)
                figures = call('POST', f'/session/{sid}/execute/sync', {'script': FIGURES, 'args': []})['value']
                print(json.dumps(figures), flush=True)
                results.append(figures)
            finally:
                call('DELETE', f'/session/{sid}')
    summary = {k: statistics.median(r[k] for r in results) for k in results[0]}
    print('median', json.dumps(summary))
finally:
    driver.terminate()
    driver.wait()
