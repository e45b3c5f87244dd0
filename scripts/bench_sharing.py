#!/usr/bin/python3
"""`make bench`, screen sharing's part: what seeing every way the screen is shared costs.

On a private 1920x1080 Xvfb with a real `shotguard watch` (its default sources and shield, a
regions file with a window rule and a corner), from /proc (CPU of all its threads, as in
bench_sensing.py):
  - the agent's CPU while a browser-like share runs: the tests' screen reader
    (Tests/Scripts/screen-reader.c, built here with cc) copies the whole root into a shared
    pixmap with CopyArea and an XSync 30 times a second, for SECONDS, as libwebrtc does;
  - the agent's CPU while a desktop application scrolls: a GTK 3 window (Tests/Scripts/
    gtk-scroller.py) scrolling a long text every 16 ms, and xterm scrolling 200,000 lines, each
    started while the agent runs (so its first three seconds are in the copy context);
  - CopyArea's throughput, x11perf -copywinpix10 and -copywinpix500 (copies from a window into a
    pixmap, as every toolkit sends), without the agent and with it: x11perf's own rate, the
    median of its repeats, run after its first three seconds and within them.
Nothing here is a pass/fail threshold; the goals are printed beside the figures.

  bench_sharing.py [SECONDS]     (default 10)

Needs the release build (`make release`), cc with the X headers, x11perf (x11-apps), xterm and
python3-gi with GTK 3; runs with the system python3.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_sensing import Agent, difference, process_sample, settle
from xvfb import start_xvfb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTGUARD = os.path.join(ROOT, ".build", "release", "shotguard")
READER_SOURCE = os.path.join(ROOT, "Tests", "Scripts", "screen-reader.c")
SCROLLER = os.path.join(ROOT, "Tests", "Scripts", "gtk-scroller.py")


def build_reader(folder):
    path = os.path.join(folder, "screen-reader")
    subprocess.run(["cc", "-O2", "-o", path, READER_SOURCE, "-lX11", "-lXext", "-lXcomposite", "-lXdamage"], check=True)
    return path


def agent_cpu_during(agent, work):
    """The agent's CPU (% of one core) while `work()` runs, and what `work` returned."""
    before = process_sample(agent.process.pid)
    result = work()
    figures = difference(before, process_sample(agent.process.pid))
    return figures, result


def share(reader, display, seconds):
    frames = int(seconds * 30)
    subprocess.run([reader, "copyarea", "33", str(frames), "-"], env=dict(os.environ, DISPLAY=display), check=True,
                   stdout=subprocess.DEVNULL)
    return frames


def scroll_gtk(display, seconds):
    steps = int(seconds / 0.016)
    subprocess.run(["/usr/bin/python3", SCROLLER, str(steps)], env=dict(os.environ, DISPLAY=display), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def scroll_xterm(display):
    subprocess.run(["xterm", "-fa", "DejaVu Sans Mono", "-fs", "10", "-geometry", "120x40+0+0", "-e", "sh", "-c", "seq 1 200000"],
                   env=dict(os.environ, DISPLAY=display), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def x11perf(display, test, repeats, seconds):
    """x11perf's rate (operations a second) for `test`: the median of its repeats."""
    result = subprocess.run(["x11perf", "-display", display, "-repeat", str(repeats), "-time", str(seconds), test],
                            capture_output=True, text=True, check=True)
    rates = [float(match) for match in re.findall(r"^\s*\d+ reps @\s+[\d.]+ msec \(\s*([\d.]+)/sec\)", result.stdout, re.M)]
    if not rates:
        raise SystemExit(f"x11perf {test} printed no rate: {result.stdout}{result.stderr}")
    return statistics.median(rates)


def throughput(display, tests, repeats=5, seconds=1):
    return {test: x11perf(display, test, repeats, seconds) for test in tests}


def bench_sharing(seconds=10, width=1920, height=1080):
    for tool in ["cc", "x11perf", "xterm"]:
        if not shutil.which(tool):
            raise SystemExit(f"bench_sharing needs {tool} (run scripts/install-deps.sh)")
    if not os.access(SHOTGUARD, os.X_OK):
        raise SystemExit(f"{SHOTGUARD} is missing: build it with 'make release'")
    tests = ["-copywinpix10", "-copywinpix500"]
    server, display = start_xvfb(width, height)
    try:
        with tempfile.TemporaryDirectory(prefix="shotguard-bench-sharing-") as folder:
            reader = build_reader(folder)
            without = throughput(display, tests)
            agent = Agent(display, folder)
            try:
                settle(agent.process.pid)
                shared, frames = agent_cpu_during(agent, lambda: share(reader, display, seconds))
                agent.until(b"recording stopped: screen-reader")
                settle(agent.process.pid)
                gtk, _ = agent_cpu_during(agent, lambda: scroll_gtk(display, seconds))
                settle(agent.process.pid)
                terminal, _ = agent_cpu_during(agent, lambda: scroll_xterm(display))
                settle(agent.process.pid)
                # Within a client's first three seconds its copies are recorded (and dropped by
                # the agent: they copy its own window); after them the server no longer hooks them.
                early = throughput(display, tests, repeats=1, seconds=1)
                steady = throughput(display, tests)
                covered = "covers up over what the recording reads" in agent.log.decode(errors="replace")
            finally:
                agent.stop()
    finally:
        server.terminate()
        server.wait()
    print(f"\nscreen sharing on a {width}x{height} Xvfb (shotguard watch --shield, a window rule and a corner)")
    print(f"  agent CPU while screen-reader copyarea shares the screen at 30 fps ({frames} frames, CopyArea + XSync into a "
          f"shared pixmap): {shared['core']:.3f}% of a core over {shared['wall']:.1f} s (goal <= 1%); "
          f"covers {'up' if covered else 'NOT up'} while it ran")
    print(f"  agent CPU while a GTK 3 window scrolls for {gtk['wall']:.1f} s: {gtk['core']:.3f}% of a core (goal <= 1%)")
    print(f"  agent CPU while xterm scrolls 200,000 lines ({terminal['wall']:.1f} s): {terminal['core']:.3f}% of a core (goal <= 1%)")
    for test in tests:
        print(f"  x11perf {test}: {without[test]:,.0f}/s without the agent, {steady[test]:,.0f}/s with it "
              f"({100 * steady[test] / without[test]:.1f}%, goal >= 90%); within x11perf's first 3 s {early[test]:,.0f}/s "
              f"({100 * early[test] / without[test]:.1f}%)")
    return {"share": shared, "gtk": gtk, "xterm": terminal, "without": without, "with": steady, "early": early}


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10
    bench_sharing(seconds)


if __name__ == "__main__":
    main()
