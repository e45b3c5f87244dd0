#!/usr/bin/env python3
"""`make bench`: shotguard beside scrot, maim and ImageMagick on the same display and pixels.

For each screen size it starts a private Xvfb, paints screenshot-like content on the root
(text, toolbars, a photo-like area), and times each command several times in one run.
Prints medians, ratios to shotguard and PNG sizes, then the speed figures of
docs/performance.md side by side (all measured in this run): capture and redact against
scrot and ImageMagick, PNG size against scrot's, a capture's peak memory against the frame,
and the window-list read for 50 windows; then what capture sensing costs the agent (idle, and while
a 30 fps recording runs: scripts/bench_sensing.py); then the text pass of text rules on 1920x1080
screens beside the tesseract command on the same images (scripts/bench-text.py, which also runs
alone); then how soon guard's text pass covers a card number in a 1920x1080 screenshot file
(scripts/bench_text_guard.py) and the text rules' recall on five fresh corpora
(scripts/text-recall.py, which also runs alone); last, what seeing screen shares costs the agent
and the X server's copies (scripts/bench_sharing.py). Nothing here is a pass/fail threshold.

  scripts/bench.py [--speed-only] [WxH ...]     (default 1920x1080 3840x2160)

--speed-only leaves out the agent's benches (watch, guard, capture sensing, shield, guard's text
pass, delivery, sharing) and the fresh corpora.
"""
import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_guard import bench_guard
from bench_sensing import bench_sensing
from bench_text_guard import bench_text_guard
from xvfb import start_xvfb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTGUARD = os.path.join(ROOT, ".build", "release", "shotguard")
RUNS = int(os.environ.get("BENCH_RUNS", "9"))


def paint_root(display, width, height, folder):
    picture = os.path.join(folder, "content.png")
    subprocess.run([os.path.join(ROOT, "scripts", "screenshot-like.sh"), str(width), str(height), picture], check=True)
    env = dict(os.environ, DISPLAY=display)
    # display(1) sets the root's background and exits 1 even when it worked.
    subprocess.run(["/usr/bin/display", "-window", "root", picture], env=env, timeout=60)
    return picture


def timed_run(command, env):
    """Wall time (seconds) and peak RSS (bytes) of one run of `command`."""
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {os.waitstatus_to_exitcode(status)}")
    return elapsed, usage.ru_maxrss * 1024


def median_runs(commands, env, runs=None, outputs=None):
    """Median wall time (seconds) and median peak RSS (bytes) of each of `commands`, run in
    turn (one run of each, then the next round): on a shared machine whose speed drifts over
    seconds, every command meets the same drift, so their ratios hold. `outputs` (one path per
    command) are removed before each run, untimed: every command makes a new file each time, as
    a screenshot does (a file replaced costs shotguard an fsync that a new one does not)."""
    samples = [[] for _ in commands]
    for _ in range(runs or RUNS):
        for index, command in enumerate(commands):
            if outputs and os.path.exists(outputs[index]):
                os.unlink(outputs[index])
            samples[index].append(timed_run(command, env))
    return [(statistics.median(t for t, _ in timed), statistics.median(p for _, p in timed)) for timed in samples]


class Lines:
    """Lines from a pipe, each waited for until a deadline: a bench never hangs on an agent
    that stopped talking, and never sleeps in place of waiting for what it needs."""

    def __init__(self, pipe):
        self.fd = pipe.fileno()
        self.buffer = b""

    def until(self, pattern, seconds=15):
        """The first match of `pattern` in the lines to come."""
        deadline = time.monotonic() + seconds
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                found = re.search(pattern, line.decode(errors="replace"))
                if found:
                    return found
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.fd], [], [], remaining)[0]:
                raise SystemExit(f"the agent logged no line matching {pattern!r} within {seconds} s")
            chunk = os.read(self.fd, 65536)
            if not chunk:
                raise SystemExit(f"the agent ended before logging a line matching {pattern!r}")
            self.buffer += chunk


WINDOWS_HELPER = r"""
import ctypes, ctypes.util, sys
x = ctypes.CDLL(ctypes.util.find_library("X11"))
x.XOpenDisplay.restype = ctypes.c_void_p
x.XDefaultRootWindow.restype = ctypes.c_ulong
x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x.XCreateSimpleWindow.restype = ctypes.c_ulong
x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_int] * 2 + [ctypes.c_uint] * 3 + [ctypes.c_ulong] * 2
x.XStoreName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_char_p]
x.XMapWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
display = x.XOpenDisplay(None)
root = x.XDefaultRootWindow(display)
for index in range(int(sys.argv[1])):
    window = x.XCreateSimpleWindow(display, root, 10 + 7 * index, 10 + 5 * index, 300, 200, 1, 0, 0xFFFFFF)
    x.XStoreName(display, window, f"bench window {index} - a title of some length".encode())
    x.XMapWindow(display, window)
x.XSync(display, 0)
print("ready", flush=True)
sys.stdin.read()
"""


def window_list_time(folder, env, count, runs):
    """What the agent's event-time read of the window list costs with `count` more top-level
    windows mapped: `shotguard watch --verbose` logs, for every snapshot it takes, the time of
    its screen-context read (in the process, so process start-up is no part of it); scrot is
    run `runs` times into the watched folder. Returns the median, in seconds, and the number of
    windows read."""
    shots = os.path.join(folder, "window-list-shots")
    os.makedirs(shots, exist_ok=True)
    helper = subprocess.Popen([sys.executable, "-c", WINDOWS_HELPER, str(count)], env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    agent = None
    try:
        if helper.stdout.readline().strip() != "ready":
            raise SystemExit("could not map the bench windows")
        agent = subprocess.Popen([SHOTGUARD, "watch", "--verbose", "--dir", shots, "--spool", os.path.join(folder, "wl-spool"),
                                  "--no-clipboard", "--no-tools"],
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        log = Lines(agent.stderr)
        log.until(r"screenshot folders: ")
        reads, listed = [], 0
        for index in range(runs):
            subprocess.run(["scrot", "-o", os.path.join(shots, f"scrot-{index}.png")], env=env, check=True)
            found = log.until(r"snapshot: .* (\d+) windows read in ([0-9.]+) ms")
            listed = int(found.group(1))
            reads.append(float(found.group(2)) / 1000)
            # The agent takes signals within a second of each other for one screenshot.
            time.sleep(1.2)
        return statistics.median(reads), listed
    finally:
        if agent:
            agent.terminate()
            agent.wait()
        helper.stdin.close()
        helper.wait()


def table(title, rows):
    base = rows[0][1]
    print(f"\n{title}")
    print(f"  {'command':<44} {'median':>9} {'vs shotguard':>13} {'PNG size':>11} {'size ratio':>10}")
    base_size = rows[0][2]
    for name, seconds, size in rows:
        print(f"  {name:<44} {seconds * 1000:>7.1f}ms {seconds / base:>12.2f}x {size:>11,} {size / base_size:>9.2f}x")


def watch_latency(folder, env, runs):
    """Seconds from scrot's exit (its file closed) to the report line of `shotguard watch`
    (written after the report folder is in place), for `runs` screenshots."""
    shots = os.path.join(folder, "shots")
    os.makedirs(shots, exist_ok=True)
    agent = subprocess.Popen([SHOTGUARD, "watch", "--dir", shots, "--spool", os.path.join(folder, "spool"),
                              "--json", "--no-clipboard", "--no-tools"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        Lines(agent.stderr).until(r"watching display ")
        reports = Lines(agent.stdout)
        latencies = []
        for index in range(runs):
            subprocess.run(["scrot", "-o", os.path.join(shots, f"scrot-{index}.png")], env=env, check=True)
            closed = time.perf_counter()
            reports.until(r".")
            latencies.append(time.perf_counter() - closed)
            # The agent takes signals within a second of each other for one screenshot.
            time.sleep(1.2)
        return latencies
    finally:
        agent.terminate()
        agent.wait()


def bench_size(width, height, folder, speed_only):
    """Runs the benches on a private Xvfb of this size; returns the speed figures."""
    server, display = start_xvfb(width, height)
    try:
        picture = paint_root(display, width, height, folder)
        env = dict(os.environ, DISPLAY=display, HOME=folder, XDG_CONFIG_HOME=folder)
        out = lambda name: os.path.join(folder, name)
        captures = [
            ("shotguard capture --screen --no-redact", [SHOTGUARD, "capture", "--screen", "--no-redact", "-o", out("sg.png")], "sg.png"),
            ("scrot", ["scrot", "-o", out("scrot.png")], "scrot.png"),
            ("maim", ["maim", out("maim.png")], "maim.png"),
            ("import -window root (ImageMagick)", ["/usr/bin/import", "-window", "root", out("import.png")], "import.png"),
        ]
        measured = median_runs([command for _, command, _ in captures], env, outputs=[out(file) for _, _, file in captures])
        rows = [(name, seconds, os.path.getsize(out(file))) for (name, _, file), (seconds, _) in zip(captures, measured)]
        table(f"capture, {width}x{height}, median of {RUNS}, the commands run in turn", rows)
        figures = {"capture": (rows[0][1], rows[1][1]), "size": (rows[0][2], rows[1][2]), "rss": measured[0][1]}

        redactions = [
            ("shotguard redact --rect 600x300+100+100 --rect 400x200+900+500",
             [SHOTGUARD, "redact", picture, "--rect", "600x300+100+100", "--rect", "400x200+900+500",
              "-o", out("sg-redacted.png")], "sg-redacted.png"),
            ("convert -fill black -draw rectangle (2)",
             ["/usr/bin/convert", picture, "-fill", "black", "-draw", "rectangle 100,100 699,399",
              "-draw", "rectangle 900,500 1299,699", out("im-redacted.png")], "im-redacted.png"),
        ]
        timings = median_runs([command for _, command, _ in redactions], env, outputs=[out(file) for _, _, file in redactions])
        rows = [(name, seconds, os.path.getsize(out(file))) for (name, _, file), (seconds, _) in zip(redactions, timings)]
        table(f"redact, {width}x{height} screenshot-like PNG, median of {RUNS}, run in turn", rows)
        figures["redact"] = (rows[0][1], rows[1][1])
        figures["windows"] = window_list_time(folder, env, 50, max(5, RUNS // 2))

        if not speed_only:
            latencies = watch_latency(folder, env, max(3, RUNS // 2))
            print(f"\nwatch, {width}x{height}: file closed by scrot -> report written, median of {len(latencies)}: "
                  f"{statistics.median(latencies) * 1000:.0f} ms (min {min(latencies) * 1000:.0f}, max {max(latencies) * 1000:.0f}); "
                  "the agent waits 1 s after the last signal for more signals of the same screenshot")
            bench_guard(width, height, folder, env, max(5, RUNS // 2))
            if (width, height) == (1920, 1080):
                figures["text guard"] = bench_text_guard(folder, env, max(5, RUNS // 2))
        return figures
    finally:
        server.terminate()
        server.wait()


def summary(results, sensing=None):
    """The figures of docs/performance.md, as ratios measured in this run; with `sensing`, the
    agent's cost of capture sensing (bench_sensing's figures of the agent: idle, recording)."""
    print(f"\nspeed summary, medians of {RUNS} (ratio = peer time / shotguard time; goals from docs/performance.md)")
    print(f"  {'work':<44} {'shotguard':>10} {'peer':>22} {'ratio':>7} {'goal':>9}")

    def row(work, ours, peer, ratio, goal):
        print(f"  {work:<44} {ours:>10} {peer:>22} {ratio:>7} {goal:>9}")

    def ms(seconds):
        return f"{seconds * 1000:.1f}ms"

    sized = [(f"{width}x{height}", width * height * 4, figures) for (width, height), figures in results]
    for size, _, figures in sized:
        ours, scrot = figures["capture"]
        row("capture full screen -> PNG, " + size, ms(ours), "scrot " + ms(scrot), f"{scrot / ours:.1f}x", ">= 5x")
    for size, _, figures in sized:
        ours, convert = figures["redact"]
        row(f"redact 2 rectangles, {size} PNG", ms(ours), "convert " + ms(convert), f"{convert / ours:.1f}x", ">= 8x")
    for size, _, figures in sized:
        ours, scrot = figures["size"]
        row("PNG size of the capture, " + size, f"{ours:,}", f"scrot {scrot:,}", f"{ours / scrot:.2f}x", "<= 0.95x")
    for size, frame, figures in sized:
        rss = figures["rss"]
        row("peak RSS of a capture, " + size, f"{rss / 2**20:.1f}MB", f"frame {frame / 2**20:.1f}MB", f"{rss / frame:.2f}x",
            "<= 1.25x")
    for size, _, figures in sized:
        seconds, listed = figures["windows"]
        row("window list, 50 windows, " + size, f"{seconds * 1000:.2f}ms", f"({listed} windows read)", "", "<= 5 ms")
    for size, _, figures in sized:
        if "text guard" in figures:
            for kind, (first, ahead, again) in zip(("payment page", "~100 lines"), figures["text guard"]):
                row(f"card in a file covered, {kind}, read ahead", ms(ahead), f"just shown {ms(first)}", "", "<= 300 ms")
                row(f"card in a file covered, {kind}, again", ms(again), "", "", "<= 300 ms")
    if sensing:
        quiet, busy = sensing
        row("agent CPU, 30 fps recording of 1920x1080", f"{busy['core']:.2f}%", "of one core", "", "<= 2%")
        row(f"agent wake-ups, idle {quiet['wall']:.0f} s", str(quiet["wakeups"]), f"CPU {quiet['cpu'] * 1000:.2f}ms", "", "0")
    print("  (window list: the agent's own log of its screen-context read at each snapshot, 50 windows mapped, median)")
    if sensing:
        print("  (capture sensing: shotguard watch --shield with a regions file, its CPU and wake-ups from /proc)")


def main():
    for tool in ["Xvfb", "scrot", "maim", "/usr/bin/import", "/usr/bin/convert", "/usr/bin/display", "ffmpeg"]:
        if not shutil.which(tool):
            raise SystemExit(f"bench needs {tool} (run scripts/install-deps.sh)")
    if not os.access(SHOTGUARD, os.X_OK):
        raise SystemExit("build shotguard first: make release")
    arguments = sys.argv[1:]
    speed_only = "--speed-only" in arguments
    arguments = [arg for arg in arguments if arg != "--speed-only"]
    sizes = [(1920, 1080), (3840, 2160)]
    if arguments:
        sizes = [tuple(int(v) for v in arg.split("x")) for arg in arguments]
    results = []
    with tempfile.TemporaryDirectory(prefix="shotguard-bench-") as folder:
        for width, height in sizes:
            results.append(((width, height), bench_size(width, height, folder, speed_only)))
    sensing = None if speed_only else bench_sensing()[0]
    summary(results, sensing)
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "bench-text.py")], check=True)
    if speed_only:
        return
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "text-recall.py")], check=True)
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "bench_shield.py")], check=True)  # needs python3-xlib
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "bench_delivery.py")], check=True)
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "bench_sharing.py")], check=True)


if __name__ == "__main__":
    main()
