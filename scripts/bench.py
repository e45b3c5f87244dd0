#!/usr/bin/env python3
"""`make bench`: shotguard beside scrot, maim and ImageMagick on the same display and pixels.

For each screen size it starts a private Xvfb, paints screenshot-like content on the root
(text, toolbars, a photo-like area), and times each command several times in one run.
Prints medians, ratios to shotguard and PNG sizes. Nothing here is a pass/fail threshold.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_guard import bench_guard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTGUARD = os.path.join(ROOT, ".build", "release", "shotguard")
RUNS = int(os.environ.get("BENCH_RUNS", "9"))


def start_xvfb(width, height):
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        if not chunk:
            raise SystemExit("Xvfb did not start")
        number += chunk
    os.close(read)
    return server, f":{number.decode().strip()}"


def paint_root(display, width, height, folder):
    picture = os.path.join(folder, "content.png")
    subprocess.run([os.path.join(ROOT, "scripts", "screenshot-like.sh"), str(width), str(height), picture], check=True)
    env = dict(os.environ, DISPLAY=display)
    # display(1) sets the root's background and exits 1 even when it worked.
    subprocess.run(["/usr/bin/display", "-window", "root", picture], env=env, timeout=60)
    return picture


def median_time(command, env):
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def table(title, rows):
    base = rows[0][1]
    print(f"\n{title}")
    print(f"  {'command':<44} {'median':>9} {'vs shotguard':>13} {'PNG size':>11} {'size ratio':>10}")
    base_size = rows[0][2]
    for name, seconds, size in rows:
        print(f"  {name:<44} {seconds * 1000:>7.1f}ms {seconds / base:>12.2f}x {size:>11,} {size / base_size:>9.2f}x")


def watch_latency(display, folder, env, runs):
    """Seconds from scrot's exit (its file closed) to the report line of `shotguard watch`
    (written after the report folder is in place), for `runs` screenshots."""
    shots = os.path.join(folder, "shots")
    os.makedirs(shots, exist_ok=True)
    agent = subprocess.Popen([SHOTGUARD, "watch", "--dir", shots, "--spool", os.path.join(folder, "spool"),
                              "--json", "--no-clipboard", "--no-tools"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        time.sleep(1)
        latencies = []
        for index in range(runs):
            subprocess.run(["scrot", "-o", os.path.join(shots, f"scrot-{index}.png")], env=env, check=True)
            closed = time.perf_counter()
            agent.stdout.readline()
            latencies.append(time.perf_counter() - closed)
            time.sleep(1.2)
        return latencies
    finally:
        agent.terminate()
        agent.wait()


def bench_size(width, height, folder):
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
        rows = [(name, median_time(command, env), os.path.getsize(out(file))) for name, command, file in captures]
        table(f"capture, {width}x{height}, median of {RUNS}", rows)

        redactions = [
            ("shotguard redact --rect 600x300+100+100",
             [SHOTGUARD, "redact", picture, "--rect", "600x300+100+100", "-o", out("sg-redacted.png")], "sg-redacted.png"),
            ("convert -fill black -draw rectangle",
             ["/usr/bin/convert", picture, "-fill", "black", "-draw", "rectangle 100,100 700,400", out("im-redacted.png")],
             "im-redacted.png"),
        ]
        rows = [(name, median_time(command, env), os.path.getsize(out(file))) for name, command, file in redactions]
        table(f"redact, {width}x{height} screenshot-like PNG, median of {RUNS}", rows)

        latencies = watch_latency(display, folder, env, max(3, RUNS // 2))
        print(f"\nwatch, {width}x{height}: file closed by scrot -> report written, median of {len(latencies)}: "
              f"{statistics.median(latencies) * 1000:.0f} ms (min {min(latencies) * 1000:.0f}, max {max(latencies) * 1000:.0f}); "
              "the agent waits 1 s after the last signal for more signals of the same screenshot")
        bench_guard(width, height, folder, env, max(5, RUNS // 2))
    finally:
        server.terminate()
        server.wait()


def main():
    for tool in ["Xvfb", "scrot", "maim", "/usr/bin/import", "/usr/bin/convert", "/usr/bin/display"]:
        if not shutil.which(tool):
            raise SystemExit(f"bench needs {tool} (run scripts/install-deps.sh)")
    if not os.access(SHOTGUARD, os.X_OK):
        raise SystemExit("build shotguard first: swift build -c release")
    sizes = [(1920, 1080), (3840, 2160)]
    if len(sys.argv) > 1:
        sizes = [tuple(int(v) for v in arg.split("x")) for arg in sys.argv[1:]]
    with tempfile.TemporaryDirectory(prefix="shotguard-bench-") as folder:
        for width, height in sizes:
            bench_size(width, height, folder)
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "bench_shield.py")], check=True)  # needs python3-xlib


if __name__ == "__main__":
    main()
