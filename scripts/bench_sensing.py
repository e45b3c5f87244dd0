#!/usr/bin/python3
"""`make bench`, capture sensing's part: what seeing screen reads (RECORD) costs the agent.

Runs `sensing-probe`, the screen-read source's loop alone, on a private Xvfb and reads its CPU
time from /proc (schedstat: nanoseconds on a CPU) and its counters (reads, the times its
descriptor woke it) from its own report. Two figures:
  - idle: 10 s with no client reading; expected 0 wake-ups;
  - recording: ffmpeg x11grab of the whole 1920x1080 screen at 30 fps for 10 s, as % of one core.
The recording runs twice: the loop alone, and with `--resolve` (each read placed on the root, a
round trip, and each client's process asked once), as the agent will use it. Nothing here is a
pass/fail threshold.

  bench_sensing.py [SECONDS] [WxH]     (default 10 1920x1080)

Needs the release build (`swift build -c release --product sensing-probe`, or `make release`)
and ffmpeg; runs with the system python3.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = os.environ.get("SENSING_PROBE", os.path.join(ROOT, ".build", "release", "sensing-probe"))


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


class Probe:
    """sensing-probe, driven through its standard input; its reports read from its output."""

    def __init__(self, display, resolve):
        arguments = [PROBE] + (["--resolve"] if resolve else [])
        self.process = subprocess.Popen(arguments, env=dict(os.environ, DISPLAY=display), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if line != "ready":
            raise SystemExit(f"sensing-probe did not start: {line or 'no output'}")

    def sample(self):
        """The probe's counters and CPU time now, and the wall clock."""
        self.process.stdin.write("report\n")
        self.process.stdin.flush()
        fields = dict(item.split("=", 1) for item in self.process.stdout.readline().split()[1:])
        with open(f"/proc/{self.process.pid}/schedstat") as schedstat:
            cpu = int(schedstat.read().split()[0]) / 1e9
        return {"reads": int(fields["reads"]), "wakeups": int(fields["wakeups"]), "cpu": cpu, "wall": time.monotonic()}

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def difference(before, after):
    figures = {key: after[key] - before[key] for key in before}
    figures["core"] = 100 * figures["cpu"] / figures["wall"] if figures["wall"] > 0 else 0.0
    return figures


def idle(display, seconds):
    probe = Probe(display, resolve=False)
    try:
        before = probe.sample()
        time.sleep(seconds)
        return difference(before, probe.sample())
    finally:
        probe.stop()


def recording(display, width, height, seconds, resolve):
    probe = Probe(display, resolve)
    try:
        before = probe.sample()
        subprocess.run(["ffmpeg", "-loglevel", "fatal", "-f", "x11grab", "-framerate", "30", "-video_size",
                        f"{width}x{height}", "-t", str(seconds), "-i", display, "-f", "null", "-"],
                       env=dict(os.environ, DISPLAY=display), check=True)
        return difference(before, probe.sample())
    finally:
        probe.stop()


def bench_sensing(seconds=10, width=1920, height=1080):
    """Prints the figures; returns them (idle, recording, recording with each read resolved)."""
    if not os.access(PROBE, os.X_OK):
        raise SystemExit(f"{PROBE} is missing: build it with 'swift build -c release --product sensing-probe'")
    server, display = start_xvfb(width, height)
    try:
        quiet = idle(display, seconds)
        plain = recording(display, width, height, seconds, resolve=False)
        resolved = recording(display, width, height, seconds, resolve=True)
    finally:
        server.terminate()
        server.wait()
    print(f"capture sensing on a {width}x{height} Xvfb (sensing-probe: the screen-read source's loop alone)")
    print(f"  idle {quiet['wall']:.1f} s: {quiet['wakeups']} wake-ups, {quiet['reads']} reads, "
          f"CPU {quiet['cpu'] * 1000:.2f} ms ({quiet['core']:.3f}% of a core)")
    for name, figures in (("recording", plain), ("recording, each read resolved", resolved)):
        print(f"  {name} (ffmpeg x11grab {width}x{height} at 30 fps, {seconds} s): {figures['reads']} reads in "
              f"{figures['wakeups']} wake-ups, CPU {figures['cpu'] * 1000:.1f} ms over {figures['wall']:.1f} s "
              f"({figures['core']:.3f}% of a core)")
    return quiet, plain, resolved


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    width, height = (int(part) for part in (sys.argv[2] if len(sys.argv) > 2 else "1920x1080").split("x"))
    bench_sensing(seconds, width, height)


if __name__ == "__main__":
    main()
