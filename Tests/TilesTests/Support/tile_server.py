#!/usr/bin/env python3
"""Loopback tile server for the TilesOnline tests (127.0.0.1 only, port chosen by the OS).

Paths: /tiles/Z/X/Y (200, cacheable for an hour), /slow/… (200 after 0.4 s), /notfound/… (404),
/error/… (500), /garbage/… (200 with bytes that are no image). After every request the statistics (number of tile requests,
the highest number in flight at once, the User-Agents and paths seen) are written as JSON to the
file named by the first argument. Prints the port on the first line of stdout."""
import json, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
stats_path = sys.argv[1]
stats = {"count": 0, "in_flight": 0, "max_in_flight": 0, "user_agents": [], "paths": []}

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, code, body, headers=()):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with lock:
            stats["count"] += 1
            stats["in_flight"] += 1
            stats["max_in_flight"] = max(stats["max_in_flight"], stats["in_flight"])
            stats["user_agents"].append(self.headers.get("User-Agent", ""))
            stats["paths"].append(self.path)
        try:
            kind = self.path.split("/")[1]
            if kind == "slow":
                time.sleep(0.4)
            if kind in ("tiles", "slow"):
                self.reply(200, ("tile " + self.path).encode(),
                           [("Content-Type", "image/png"), ("Cache-Control", "public, max-age=3600")])
            elif kind == "notfound":
                self.reply(404, b"no such tile", [("Cache-Control", "no-store")])
            elif kind == "error":
                self.reply(500, b"oops", [("Cache-Control", "no-store")])
            elif kind == "garbage":
                self.reply(200, bytes(range(256)) * 4, [("Content-Type", "image/png"), ("Cache-Control", "no-store")])
            else:
                self.reply(400, b"bad path")
        finally:
            with lock:
                stats["in_flight"] -= 1
                with open(stats_path + ".tmp", "w") as f:
                    json.dump(stats, f)
                import os
                os.replace(stats_path + ".tmp", stats_path)

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
