"""`make bench`, guard's part: how fast the screenshot itself is redacted.

File: from scrot's exit (its file closed) to the redacted file renamed over it (a new inode at
the path). Followed pixels, in folders the agent does not watch: from the command's exit to the
file read back redacted, for a screenshot moved by the command scrot runs (`scrot -e 'mv $f …'`)
and for one piped (`import png:- | cat > f`). Clipboard: from a tool taking CLIPBOARD to the agent owning it, and to the first
paste arriving redacted (timed inside scripts/clipboard-probe.py, one process, one clock).
"""
import os
import statistics
import subprocess
import time

from PIL import Image  # python3-pil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTGUARD = os.path.join(ROOT, ".build", "release", "shotguard")
PROBE = os.path.join(ROOT, "scripts", "clipboard-probe.py")
# One rule on the screen's top-left area: every screenshot of the whole screen is hit.
RULES = "screen 400x200+100+100\n"


def start_agent(folder, env, arguments):
    regions = os.path.join(folder, "guard-regions")
    with open(regions, "w") as file:
        file.write(RULES)
    agent = subprocess.Popen([SHOTGUARD, "watch", "--regions", regions, "--spool", os.path.join(folder, "guard-spool"),
                              "--json", "--no-tools"] + arguments,
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in agent.stderr:
        if "watching display" in line:
            return agent
    raise SystemExit("the agent did not start")


def stop_agent(agent):
    agent.terminate()
    agent.wait()


def file_rewrites(folder, env, runs):
    """Seconds from scrot's exit to the rename of the redacted file, for `runs` screenshots."""
    shots = os.path.join(folder, "guard-shots")
    os.makedirs(shots, exist_ok=True)
    agent = start_agent(folder, env, ["--dir", shots, "--no-clipboard"])
    try:
        times = []
        for index in range(runs):
            path = os.path.join(shots, f"scrot-{index}.png")
            subprocess.run(["scrot", "-o", path], env=env, check=True)
            closed = time.perf_counter()
            written = os.stat(path).st_ino
            deadline = closed + 10
            while os.stat(path).st_ino == written:
                if time.perf_counter() > deadline:
                    raise SystemExit(f"guard did not rewrite {path} within 10 s")
                time.sleep(0.0005)
            times.append(time.perf_counter() - closed)
            time.sleep(1.2)
        return times
    finally:
        stop_agent(agent)


def followed_rewrites(folder, env, runs):
    """(moved, piped) seconds from the command's exit to its file read back redacted (guard's
    rewrite, in place or in its inode), in folders the agent does not watch."""
    first, second = os.path.join(folder, "guard-moved-from"), os.path.join(folder, "guard-moved-to")
    for place in (first, second):
        os.makedirs(place, exist_ok=True)
    agent = start_agent(folder, env, ["--no-clipboard"])

    def until_changed(path, started):
        # Redacted when the rule's rectangle reads black (a file read half-written is skipped).
        deadline = started + 10
        while True:
            try:
                with Image.open(path) as image:
                    if image.convert("RGB").crop((100, 100, 500, 300)).getextrema() == ((0, 0), (0, 0), (0, 0)):
                        return time.perf_counter() - started
            except (OSError, SyntaxError):
                pass
            if time.perf_counter() > deadline:
                raise SystemExit(f"guard did not rewrite {path} within 10 s")
            time.sleep(0.002)

    try:
        moved, piped = [], []
        for index in range(runs):
            subprocess.run(["scrot", "-o", os.path.join(first, f"m-{index}.png"), "-e", f"mv $f '{second}/'"], env=env, check=True)
            moved.append(until_changed(os.path.join(second, f"m-{index}.png"), time.perf_counter()))
            time.sleep(1.2)
            target = os.path.join(second, f"p-{index}.png")
            subprocess.run(f"import -window root png:- | cat > '{target}'", shell=True, env=env, check=True)
            piped.append(until_changed(target, time.perf_counter()))
            time.sleep(1.2)
        return moved, piped
    finally:
        stop_agent(agent)


def clipboard_takeovers(folder, env, runs):
    """(owned, pasted) milliseconds per run, measured by the probe acting as the tool."""
    image = os.path.join(folder, "guard-clip.png")
    subprocess.run(["scrot", "-o", image], env=env, check=True)
    agent = start_agent(folder, env, ["--no-files"])
    try:
        results = []
        for _ in range(runs):
            line = subprocess.run(["/usr/bin/python3", PROBE, image], env=env, check=True, timeout=30,
                                  capture_output=True, text=True).stdout.split()
            if line[4] != "redacted":
                raise SystemExit("the paste after the takeover was the original image")
            results.append((float(line[1]), float(line[3])))
            time.sleep(1.2)
        return results
    finally:
        stop_agent(agent)


def jpeg_placements(folder, env, runs, width, height):
    """(full screen, region) milliseconds the agent took to place scrot -q 75 JPEGs, from its
    verbose log ("placed ... (decoded in D ms, placed in P ms)")."""
    shots = os.path.join(folder, "guard-jpeg")
    os.makedirs(shots, exist_ok=True)
    agent = start_agent(folder, env, ["--dir", shots, "--no-clipboard", "--verbose"])
    region = f"{width // 3},{height // 4},{width // 3},{height // 3}"
    try:
        results = {"full": [], "region": []}
        for index in range(runs):
            for kind, extra in (("full", []), ("region", ["-a", region])):
                path = os.path.join(shots, f"scrot-{kind}-{index}.jpg")
                subprocess.run(["scrot", "-q", "75", "-o"] + extra + [path], env=env, check=True)
                for line in agent.stderr:
                    if f"placed {path} by" in line:
                        results[kind].append(float(line.split("placed in ")[1].split(" ms")[0]))
                        break
                    if path in line and ("not found" in line or "differs" in line):
                        raise SystemExit(f"the agent could not place {path}: {line.strip()}")
                time.sleep(1.2)
        return results["full"], results["region"]
    finally:
        stop_agent(agent)


def describe(values):
    return f"median {statistics.median(values):.1f} ms (min {min(values):.1f}, max {max(values):.1f})"


def bench_guard(width, height, folder, env, runs):
    rewrites = [seconds * 1000 for seconds in file_rewrites(folder, env, runs)]
    print(f"\nguard, {width}x{height}: scrot's file closed -> redacted file renamed over it, {runs} runs: {describe(rewrites)}")
    moved, piped = followed_rewrites(folder, env, runs)
    print(f"guard, {width}x{height}: scrot -e 'mv $f elsewhere/' exits -> the moved file redacted, {runs} runs: "
          f"{describe([seconds * 1000 for seconds in moved])}")
    print(f"guard, {width}x{height}: import png:- | cat > f exits -> f redacted, {runs} runs: "
          f"{describe([seconds * 1000 for seconds in piped])}")
    clip = clipboard_takeovers(folder, env, runs)
    print(f"guard, {width}x{height}: tool takes CLIPBOARD -> agent owns it, {runs} runs: {describe([c[0] for c in clip])}")
    print(f"guard, {width}x{height}: tool takes CLIPBOARD -> first paste arrives redacted, {runs} runs: "
          f"{describe([c[1] for c in clip])}")
    full, region = jpeg_placements(folder, env, runs, width, height)
    print(f"placement of a scrot -q 75 JPEG, {width}x{height}, inside the agent: full screen {describe(full)}; "
          f"a third of the screen found by search {describe(region)}")
