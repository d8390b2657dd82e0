#!/usr/bin/env python3
"""The real window opening a big point file under Xvfb (issue 14 item 5; part of `make bench`,
not of `make test`): starts Xvfb, launches the release `clustermap FILE` with its event log,
drags the map back and forth all through the load (so frames are asked for, as a user panning
would), and prints one JSON line: time to the first clustered frame (the first frame after
`load-done`), the longest, 95th-percentile and median gap between frames while the map moves
during the load (rests between drags excluded: see `moving_gaps`), the number of
progress updates, and the app's peak RSS (VmHWM).

usage: bench-window.py FILE [--binary PATH] [--timeout SECONDS] [--pause SECONDS]

FILE `cities` launches without a file: the bundled world cities (launch to first clustered frame).

--pause is the rest between two drags (default 0.5 s; 0 drags without a break).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    binary = ".build/release/clustermap"
    timeout = 300.0
    if "--binary" in args:
        binary = args[args.index("--binary") + 1]
    if "--timeout" in args:
        timeout = float(args[args.index("--timeout") + 1])
    pause = 0.5
    if "--pause" in args:
        pause = float(args[args.index("--pause") + 1])
    path = args[0]

    work = tempfile.mkdtemp(prefix="clustermap-bench-window-")
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1600x1000x24", "-nolisten", "tcp", "-noreset"],
                            pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    while not number.endswith(b"\n"):  # Xvfb writes the display number and a newline once ready
        chunk = os.read(r, 16)
        if not chunk:
            break
        number += chunk
    os.close(r)
    display = ":" + number.decode().strip()
    env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11", GTK_A11Y="none", NO_AT_BRIDGE="1",
               XDG_CONFIG_HOME=work + "/config", XDG_CACHE_HOME=work + "/cache", XDG_DATA_HOME=work + "/data")
    log_path = work + "/events.jsonl"
    start = time.monotonic()
    files = [] if path == "cities" else [path]
    app = subprocess.Popen([binary] + files + ["--size", "1280x800", "--event-log", log_path], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak_kb = 0
    done = threading.Event()

    def watch_memory():
        nonlocal peak_kb
        while not done.is_set():
            try:
                with open(f"/proc/{app.pid}/status") as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            peak_kb = max(peak_kb, int(line.split()[1]))
            except OSError:
                return
            time.sleep(0.2)

    threading.Thread(target=watch_memory, daemon=True).start()

    def events():
        try:
            with open(log_path) as f:
                return [json.loads(line) for line in f if line.startswith("{")]
        except (OSError, ValueError):
            return []

    # Wait for the window, then pan with the mouse until the data is on screen.
    window = None
    while window is None and time.monotonic() - start < 60:
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "ClusterMap"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.split()
        window = out[0] if out else None
        time.sleep(0.1)
    if window is None:
        app.terminate()
        xvfb.terminate()
        sys.exit("bench-window: no window")
    x, step = 640, 40
    motion = []  # (from, to) ms since launch: while the map is being moved
    result = None
    rounds = 0
    while time.monotonic() - start < timeout:
        # A drag (frames as fast as xdotool moves the pointer), then a keyboard zoom in or out
        # (an eased animation: frames as fast as the frame clock, if the GTK thread keeps up).
        moving_from = (time.monotonic() - start) * 1000
        # One xdotool process for the whole drag: a move every 10 ms, as a hand moves a mouse
        # (a process per move measured xdotool's start-up on the loaded cores, not the app).
        drag = ["xdotool", "mousemove", "--window", window, str(x), "400", "mousedown", "1"]
        for _ in range(24):
            x += step // 4
            drag += ["sleep", "0.01", "mousemove", "--window", window, str(x), "400"]
        drag += ["mouseup", "1"]
        subprocess.run(drag, env=env)
        step = -step
        subprocess.run(["xdotool", "key", "--window", window, "plus" if rounds % 2 == 0 else "minus"], env=env)
        # Moving until the keyboard zoom's animation (0.25 s) has ended.
        motion.append((moving_from, (time.monotonic() - start) * 1000 + 250))
        rounds += 1
        time.sleep(pause)
        log = events()
        done_index = next((k for k, e in enumerate(log) if e.get("event") == "load-done"), None)
        if done_index is not None:
            # Frames are stamped in ms since launch; load-done's own "ms" is the load's duration.
            during = [e["ms"] for e in log[:done_index] if e.get("event") == "frame"]
            after = [e["ms"] for e in log[done_index:] if e.get("event") == "frame"]
            if after:
                gaps = moving_gaps(during, motion)
                if os.environ.get("BENCH_WINDOW_GAPS"):
                    print("gaps:", [round(g) for g in gaps], file=sys.stderr)
                result = {"bench": "window", "file": os.path.basename(path),
                          "points": next(e.get("points") for e in log if e.get("event") == "load-done"),
                          "first_clustered_frame_ms": after[0],
                          "load_ms": log[done_index].get("ms"),
                          # When the window first drew (GTK start) and when the data was handed over.
                          "ready_ms": next((e.get("ms") for e in log if e.get("event") == "ready"), None),
                          "load_done_at_ms": log[done_index].get("at"),
                          "frames_during_load": len(during),
                          "max_frame_gap_ms": max(gaps) if gaps else None,
                          "p95_frame_gap_ms": sorted(gaps)[int(0.95 * (len(gaps) - 1))] if gaps else None,
                          "median_frame_gap_ms": statistics.median(gaps) if gaps else None,
                          "progress_updates": sum(1 for e in log if e.get("event") == "load-progress"),
                          # CPU seconds so far (load-independent costs, unlike the wall times above):
                          # the whole app, its GTK thread (frames, events), and the X server
                          # (its copy of every frame).
                          "app_cpu_s": cpu_seconds(app.pid),
                          "gtk_thread_cpu_s": cpu_seconds(app.pid, app.pid),
                          "xvfb_cpu_s": cpu_seconds(xvfb.pid)}
                break
    time.sleep(0.5)
    done.set()
    app.terminate()
    app.wait()
    xvfb.terminate()
    if result is None:
        sys.exit("bench-window: the data did not load within the timeout")
    result["peak_rss_mb"] = round(peak_kb / 1024, 1)
    print(json.dumps(result, separators=(",", ":")), flush=True)


def cpu_seconds(pid, tid=None):
    """User + system CPU seconds of process `pid` (or its thread `tid`) from /proc, None if gone."""
    path = f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat"
    try:
        with open(path) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # Fields 14 and 15 (utime, stime) of stat(5), here 12 and 13 after the ")" of the name.
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 2)


def moving_gaps(frames, motion):
    """The gaps between frames (ms since launch) while the map is being moved: both frames inside
    one (from, to) window of `motion` (a drag and the keyboard zoom's animation after it). Gaps
    while the map rests between two drags (no frame is wanted then) don't count; a stall in the
    middle of a drag or an animation does."""
    gaps = []
    for a, b in zip(frames, frames[1:]):
        if any(lo <= a and b <= hi for lo, hi in motion):
            gaps.append(b - a)
    return gaps


if __name__ == "__main__":
    main()
