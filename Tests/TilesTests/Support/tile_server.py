#!/usr/bin/env python3
"""Loopback tile server for the TilesOnline tests (127.0.0.1 only, port chosen by the OS).

Paths: /tiles/Z/X/Y (200, cacheable for an hour), /png/Z/X/Y (a real 256-px PNG of one colour,
cacheable), /slow/… (200 after 0.4 s), /notfound/… (404),
/error/… (500), /garbage/… (200 with bytes that are no image).
Hostile answers: /huge/… (200 declaring 2 GiB and sending zeros), /endless/… (200, chunked, never
ends), /bomb/… (200, gzip-encoded, 1 GiB of zeros in about 1 MB), /trickle/… (200, 100 bytes, one
every 0.3 s), /loop/… (302 to itself, forever), /moved/… (301 to /tiles/…). After every request the statistics (number of tile requests,
the highest number in flight at once, the User-Agents and paths seen) are written as JSON to the
file named by the first argument. Prints the port on the first line of stdout."""
import json, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
stats_path = sys.argv[1]
stats = {"count": 0, "in_flight": 0, "max_in_flight": 0, "user_agents": [], "paths": []}

def png_tile(size=256, rgb=(0xC8, 0x3C, 0xB4)):
    """A solid magenta PNG, written by hand (no imaging library needed)."""
    import struct, zlib
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * size
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * size)) + chunk(b"IEND", b""))

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

    def stream_zeros(self, total=None, gzip=False):
        """Zeros in 1 MiB chunks (chunked transfer when no total): until `total` or the client
        hangs up. With gzip, the zeros are compressed on the fly (a gzip bomb)."""
        import zlib
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Cache-Control", "no-store")
        if total is not None:
            self.send_header("Content-Length", str(total))
        else:
            self.send_header("Transfer-Encoding", "chunked")
        if gzip:
            self.send_header("Content-Encoding", "gzip")
        self.end_headers()
        chunk = bytes(1 << 20)
        squeeze = zlib.compressobj(9, zlib.DEFLATED, 31) if gzip else None
        def send(data):
            if not data:
                return
            if total is None:
                self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
            else:
                self.wfile.write(data)
        sent = 0
        try:
            while total is None or sent < total:
                if gzip and sent >= (1 << 30):
                    send(squeeze.flush())
                    break
                send(squeeze.compress(chunk) if gzip else chunk)
                sent += len(chunk)
            if total is None:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

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
            if kind == "huge":
                self.stream_zeros(total=2 << 30)
            elif kind == "endless":
                self.stream_zeros()
            elif kind == "bomb":
                self.stream_zeros(gzip=True)
            elif kind == "trickle":
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                try:
                    for _ in range(100):
                        self.wfile.write(b"x")
                        self.wfile.flush()
                        time.sleep(0.3)
                except (BrokenPipeError, ConnectionResetError):
                    pass
            elif kind == "moved":
                # A relative redirect to the same tile under /tiles (followed: the tile arrives).
                self.reply(301, b"", [("Location", "/tiles/" + self.path.split("/", 2)[2]), ("Cache-Control", "no-store")])
            elif kind == "loop":
                self.reply(302, b"", [("Location", self.path), ("Cache-Control", "no-store")])
            elif kind in ("tiles", "slow"):
                self.reply(200, ("tile " + self.path).encode(),
                           [("Content-Type", "image/png"), ("Cache-Control", "public, max-age=3600")])
            elif kind == "png":
                self.reply(200, png_tile(), [("Content-Type", "image/png"), ("Cache-Control", "public, max-age=3600")])
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
