#!/usr/bin/python3
"""`make bench`, the reporters' part: how soon a screenshot reaches the bug pipeline, and what a
backlog costs the agent.

Latency: from scrot's exit to the local HTTP server (Tests/Scripts/report-server.py, 127.0.0.1
only) having the request's body, for a webhook and a Sentry envelope; the agent settles a
screenshot 1 s after its last signal, so that second is in the figure. Memory: the agent's
resident size idle, then with 1,000 reports queued while the service is down, and its peak while
it sends them once the service is back (and how long that takes).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xvfb import start_xvfb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTGUARD = os.path.join(ROOT, ".build", "release", "shotguard")
SERVER = os.path.join(ROOT, "Tests", "Scripts", "report-server.py")
RULES = "screen 400x200+100+100\n"
BACKLOG = 1000


def start_server(folder, port=0):
    saved = os.path.join(folder, "saved")
    os.makedirs(saved, exist_ok=True)
    log = os.path.join(folder, "requests.jsonl")
    port_file = os.path.join(folder, "port")
    if os.path.exists(port_file):
        os.unlink(port_file)
    server = subprocess.Popen(["/usr/bin/python3", SERVER, "--port", str(port), "--port-file", port_file, "--log", log,
                               "--save", saved], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 10
    while not os.path.exists(port_file):
        if time.time() > deadline or server.poll() is not None:
            raise SystemExit("report-server.py did not start")
        time.sleep(0.01)
    with open(port_file) as file:
        return server, int(file.read()), log


def requests(log):
    with open(log) as file:
        # In the order the requests came (n); lines are written as each is answered, by threads.
        return sorted((entry for entry in map(json.loads, file) if "n" in entry), key=lambda entry: entry["n"])


def start_agent(folder, env, arguments, waiting_for):
    """Starts the agent with its log in a file (a pipe nobody reads would fill and stop it) and
    waits for the log line `waiting_for`."""
    regions = os.path.join(folder, "regions")
    with open(regions, "w") as file:
        file.write(RULES)
    log = os.path.join(folder, f"agent-{time.time_ns()}.log")
    with open(log, "w") as output:
        agent = subprocess.Popen([SHOTGUARD, "watch", "--regions", regions, "--spool", os.path.join(folder, "spool"), "--no-tools",
                                  "--no-clipboard", "--no-notify"] + arguments,
                                 env=env, stdout=subprocess.DEVNULL, stderr=output)
    deadline = time.time() + 30
    while True:
        with open(log) as file:
            if waiting_for in file.read():
                return agent
        if agent.poll() is not None or time.time() > deadline:
            raise SystemExit(f"the agent did not start: {open(log).read()}")
        time.sleep(0.02)


def memory(pid):
    """(resident, peak resident) in MB, from /proc."""
    fields = {}
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def describe(values):
    return f"median {statistics.median(values):.0f} ms (min {min(values):.0f}, max {max(values):.0f})"


def latency(folder, env, runs):
    server, port, log = start_server(os.path.join(folder, "latency-server"))
    shots = os.path.join(folder, "shots")
    os.makedirs(shots, exist_ok=True)
    agent = start_agent(folder, env, ["--dir", shots, "--report-to", f"http://127.0.0.1:{port}/hook",
                                      "--report-to", f"sentry:http://0123456789abcdef@127.0.0.1:{port}/42"], "watching display")
    webhook, sentry = [], []
    try:
        for index in range(runs):
            before = len(requests(log))
            subprocess.run(["scrot", "-o", os.path.join(shots, f"scrot-{index}.png")], env=env, check=True)
            closed = time.time()
            deadline = closed + 20
            while len(requests(log)) < before + 2:
                if time.time() > deadline:
                    raise SystemExit("the reports did not arrive within 20 s")
                time.sleep(0.002)
            for entry in requests(log)[before:]:
                (sentry if entry["kind"] == "envelope" else webhook).append((entry["received"] - closed) * 1000)
            time.sleep(1.2)
        report = next(entry for entry in requests(log) if entry["kind"] == "multipart")
        return webhook, sentry, report, memory(agent.pid)[0]
    finally:
        agent.terminate()
        agent.wait()
        server.terminate()
        server.wait()


def backlog(folder, env, report):
    """Queues BACKLOG reports (the report and image the latency run delivered) for a service that is
    down, starts the agent over them, then brings the service back."""
    server, port, log = start_server(os.path.join(folder, "backlog-server"))
    server.terminate()
    server.wait()
    state = os.path.join(folder, "state")
    outbox = os.path.join(state, "shotguard", "outbox")
    os.makedirs(outbox, mode=0o700)
    os.chmod(os.path.join(state, "shotguard"), 0o700)
    parts = {part["name"]: part["file"] for part in report["parts"]}
    with open(parts["report"], "rb") as file:
        document = file.read()
    destination = f"http://127.0.0.1:{port}/hook"
    for index in range(1, BACKLOG + 1):
        entry = os.path.join(outbox, f"{index:010d}-backlog-{index:04d}")
        os.mkdir(entry, 0o700)
        with open(os.path.join(entry, "report.json"), "wb") as file:
            file.write(document)
        shutil.copyfile(parts["image"], os.path.join(entry, "image.png"))
        with open(os.path.join(entry, "entry.json"), "w") as file:
            json.dump({"report": f"backlog-{index:04d}", "event": f"{index:032x}", "created": time.time(), "held": 0, "image": 1,
                       "deliveries": [{"to": destination, "headers": None, "state": "waiting", "attempts": 0, "next": None,
                                       "sent": None, "error": None}]}, file)
    env = dict(env, XDG_STATE_HOME=state)
    agent = start_agent(folder, env, ["--report-queue-size", "8G"], "waiting in the queue")
    try:
        time.sleep(2)  # the first attempt fails at once; the queue is in memory from the start
        queued, _ = memory(agent.pid)
        server, _, log = start_server(os.path.join(folder, "backlog-server"), port)
        started = time.time()
        deadline = started + 600
        while len([entry for entry in requests(log) if entry.get("answered")]) < BACKLOG:
            if time.time() > deadline:
                raise SystemExit("the backlog was not delivered within 10 minutes")
            time.sleep(0.05)
        sent_in = time.time() - started
        order = [entry["headers"].get("x-shotguard-delivery") for entry in requests(log) if entry.get("answered")]
        in_order = order == [f"{index:032x}" for index in range(1, BACKLOG + 1)]
        _, peak = memory(agent.pid)
        return queued, peak, sent_in, in_order
    finally:
        agent.terminate()
        agent.wait()
        server.terminate()
        server.wait()


def bench_delivery(width=1920, height=1080, runs=9):
    display_server, display = start_xvfb(width, height)
    try:
        with tempfile.TemporaryDirectory(prefix="shotguard-bench-delivery-") as folder:
            env = {key: value for key, value in os.environ.items() if key not in ("DBUS_SESSION_BUS_ADDRESS",)}
            env.update(DISPLAY=display, HOME=folder, XDG_STATE_HOME=os.path.join(folder, "latency-state"))
            webhook, sentry, report, idle = latency(folder, env, runs)
            print(f"\ndelivery, {width}x{height}: scrot exits -> webhook request received, {runs} runs: {describe(webhook)}")
            print(f"delivery, {width}x{height}: scrot exits -> Sentry envelope received, {runs} runs: {describe(sentry)}")
            print("  (the agent settles a screenshot 1 s after its last signal: that second is in both figures)")
            queued, peak, sent_in, in_order = backlog(folder, env, report)
            print(f"agent memory: {idle:.1f} MB resident after the latency runs; {queued:.1f} MB with {BACKLOG} reports queued; "
                  f"peak {peak:.1f} MB while sending them")
            print(f"backlog of {BACKLOG} {width}x{height} reports sent in {sent_in:.1f} s "
                  f"({BACKLOG / sent_in:.0f} a second), {'in order' if in_order else 'OUT OF ORDER'}")
    finally:
        display_server.terminate()
        display_server.wait()


if __name__ == "__main__":
    if not os.access(SHOTGUARD, os.X_OK):
        raise SystemExit("build shotguard first: make release")
    bench_delivery()
