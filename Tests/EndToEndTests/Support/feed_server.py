#!/usr/bin/env python3
"""Loopback GeoJSON feed for the live-data tests (127.0.0.1 only, port chosen by the OS).

The first argument is a folder of scripted answers: the Nth request for any path gets the file
N.txt (0-based; after the last one, the last one again). A file whose first line is
"STATUS 500" is answered with that status and the rest as the body; otherwise the whole file is
the body of a 200. Prints the port on the first line of stdout."""
import os, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

folder = sys.argv[1]
lock = threading.Lock()
served = [0]

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        with lock:
            n = served[0]
            served[0] += 1
        names = sorted((f for f in os.listdir(folder) if f.endswith(".txt")), key=lambda f: int(f[:-4]))
        name = names[min(n, len(names) - 1)]
        with open(os.path.join(folder, name), "rb") as f:
            body = f.read()
        code = 200
        if body.startswith(b"STATUS "):
            first, _, body = body.partition(b"\n")
            code = int(first.split()[1])
        self.send_response(code)
        self.send_header("Content-Type", "application/geo+json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
