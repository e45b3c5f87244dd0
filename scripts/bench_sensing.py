#!/usr/bin/python3
"""`make bench`, capture sensing's part: what seeing screen reads (RECORD) costs the agent.

Two figures, each measured on a private Xvfb from /proc (schedstat: nanoseconds on a CPU, summed
over the process's threads; voluntary context switches: the times it blocked, so its wake-ups):
  - idle: 10 s with no client reading; expected 0 wake-ups;
  - recording: ffmpeg x11grab of the whole 1920x1080 screen at 30 fps for 10 s, as % of one core.
They are taken of the agent itself — a real `shotguard watch --shield` with a regions file and
its default sources (files, clipboard, tool windows, screen reads) — and of `sensing-probe`, the
screen-read source's loop alone, which also counts its reads and its descriptor's wake-ups: the
loop alone, and with `--resolve` (each read placed on the root, a round trip, and each client's
process asked once), as the agent uses it. Nothing here is a pass/fail threshold.

  bench_sensing.py [SECONDS] [WxH]     (default 10 1920x1080)

Needs the release build (`make release`: shotguard and sensing-probe) and ffmpeg; runs with the
system python3.
"""
import os
import select
import subprocess
import sys
import tempfile
import time

from xvfb import start_xvfb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = os.environ.get("SENSING_PROBE", os.path.join(ROOT, ".build", "release", "sensing-probe"))
SHOTGUARD = os.path.join(ROOT, ".build", "release", "shotguard")
# A rule on a window and one on a corner of the screen: the shield has covers to raise.
RULES = "window class=KeePassXC\nscreen 300x28-0+0\n"


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


def record(display, width, height, seconds):
    """ffmpeg x11grab of the whole screen at 30 fps for `seconds`, its frames thrown away."""
    subprocess.run(["ffmpeg", "-loglevel", "fatal", "-nostdin", "-f", "x11grab", "-framerate", "30", "-video_size",
                    f"{width}x{height}", "-t", str(seconds), "-i", display, "-f", "null", "-"],
                   env=dict(os.environ, DISPLAY=display), check=True)


def recording(display, width, height, seconds, resolve):
    probe = Probe(display, resolve)
    try:
        before = probe.sample()
        record(display, width, height, seconds)
        return difference(before, probe.sample())
    finally:
        probe.stop()


def process_sample(pid):
    """CPU seconds and voluntary context switches of every thread of `pid`, and the wall clock."""
    cpu, switches = 0.0, 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
            cpu += int(schedstat.read().split()[0]) / 1e9
        with open(f"/proc/{pid}/task/{task}/status") as status:
            for line in status:
                if line.startswith("voluntary_ctxt_switches:"):
                    switches += int(line.split()[1])
    return {"cpu": cpu, "wakeups": switches, "wall": time.monotonic()}


class Agent:
    """`shotguard watch --shield` with a regions file and its default sources, its log read as
    it comes (so a full pipe never stalls it); no session bus, so it neither serves one nor
    sends notifications to the desktop running the bench."""

    def __init__(self, display, folder):
        regions = os.path.join(folder, "sensing-regions")
        with open(regions, "w") as file:
            file.write(RULES)
        env = {key: value for key, value in os.environ.items() if key not in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")}
        env.update(DISPLAY=display, HOME=folder, XDG_CONFIG_HOME=os.path.join(folder, ".config"),
                   XDG_STATE_HOME=os.path.join(folder, ".state"))
        self.process = subprocess.Popen([SHOTGUARD, "watch", "--regions", regions, "--shield", "--no-notify",
                                         "--spool", os.path.join(folder, "sensing-spool")],
                                        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.log = b""
        self.until(b"watching display ")

    def until(self, text, seconds=30):
        """Reads the log until it holds `text` (bounded); the log's lines that hold it."""
        deadline = time.monotonic() + seconds
        while text not in self.log:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.process.stderr], [], [], remaining)[0]:
                raise SystemExit(f"the agent logged no {text.decode()!r} within {seconds} s: {self.log.decode(errors='replace')}")
            chunk = os.read(self.process.stderr.fileno(), 65536)
            if not chunk:
                raise SystemExit(f"the agent ended: {self.log.decode(errors='replace')}")
            self.log += chunk
        return [line for line in self.log.decode(errors="replace").splitlines() if text.decode() in line]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def settle(pid, seconds=10):
    """Waits until `pid` has not woken for half a second (its start-up's work done), at most `seconds`."""
    deadline = time.monotonic() + seconds
    last = process_sample(pid)["wakeups"]
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = process_sample(pid)["wakeups"]
        if now == last:
            return
        last = now


def agent_figures(display, width, height, seconds):
    """The agent idle for `seconds` (once its start-up's work is done), then during a recording."""
    with tempfile.TemporaryDirectory(prefix="shotguard-bench-sensing-") as folder:
        agent = Agent(display, folder)
        try:
            settle(agent.process.pid)
            before = process_sample(agent.process.pid)
            time.sleep(seconds)
            quiet = difference(before, process_sample(agent.process.pid))
            before = process_sample(agent.process.pid)
            record(display, width, height, seconds)
            stopped = agent.until(b"recording stopped: ")[-1]
            busy = difference(before, process_sample(agent.process.pid))
            frames = stopped.split(" read ")[-1]
            busy["frames"] = frames
            busy["covered"] = "shield: covers up over what the recording reads" in agent.log.decode(errors="replace")
            return quiet, busy
        finally:
            agent.stop()


def bench_sensing(seconds=10, width=1920, height=1080):
    """Prints the figures; returns the agent's (idle, recording) and the probe's (idle, recording,
    recording with each read resolved)."""
    for program, build in ((PROBE, "swift build -c release --product sensing-probe"), (SHOTGUARD, "make release")):
        if not os.access(program, os.X_OK):
            raise SystemExit(f"{program} is missing: build it with '{build}'")
    server, display = start_xvfb(width, height)
    try:
        agent_idle, agent_recording = agent_figures(display, width, height, seconds)
        quiet = idle(display, seconds)
        plain = recording(display, width, height, seconds, resolve=False)
        resolved = recording(display, width, height, seconds, resolve=True)
    finally:
        server.terminate()
        server.wait()
    print(f"\ncapture sensing on a {width}x{height} Xvfb, ffmpeg x11grab of the whole screen at 30 fps for {seconds} s")
    print(f"  shotguard watch --shield, idle {agent_idle['wall']:.1f} s: {agent_idle['wakeups']} wake-ups, "
          f"CPU {agent_idle['cpu'] * 1000:.2f} ms ({agent_idle['core']:.3f}% of a core)")
    print(f"  shotguard watch --shield, recording: {agent_recording['wakeups']} wake-ups, CPU {agent_recording['cpu'] * 1000:.1f} ms "
          f"over {agent_recording['wall']:.1f} s ({agent_recording['core']:.3f}% of a core); it read {agent_recording['frames']}, "
          f"covers {'up' if agent_recording['covered'] else 'NOT up'} while it ran")
    print(f"  sensing-probe (the screen-read source's loop alone), idle {quiet['wall']:.1f} s: {quiet['wakeups']} wake-ups, "
          f"{quiet['reads']} reads, CPU {quiet['cpu'] * 1000:.2f} ms ({quiet['core']:.3f}% of a core)")
    for name, figures in (("recording", plain), ("recording, each read resolved", resolved)):
        print(f"  sensing-probe, {name}: {figures['reads']} reads in {figures['wakeups']} wake-ups, "
              f"CPU {figures['cpu'] * 1000:.1f} ms over {figures['wall']:.1f} s ({figures['core']:.3f}% of a core)")
    return (agent_idle, agent_recording), (quiet, plain, resolved)


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    width, height = (int(part) for part in (sys.argv[2] if len(sys.argv) > 2 else "1920x1080").split("x"))
    bench_sensing(seconds, width, height)


if __name__ == "__main__":
    main()
