#!/usr/bin/env python3
"""The text pass's bench: `shotguard redact` with text rules beside `tesseract` on the same 1920x1080 images.

Times, on each image, `shotguard redact` with the four text rules (card, email, iban, key) and
with none (the rest of redact: decode, encode), and the `tesseract` command on the same PNG
(its default page segmentation; once as installed, once with OMP_THREAD_LIMIT=1, one thread as
shotguard gives each of its workers). Prints medians, the text pass's own time (the difference),
its CPU time, and the ratio of tesseract's time to the text pass's (peer / shotguard, as bench.py's
ratios). The budget for the text pass of a 1920x1080 screenshot is 1.5 s on two cores; nothing
here is a pass/fail threshold.

Images: the two 1920x1080 images of the test corpus (Tests/TextTests/Corpus: forms, terminals,
tables and tickets full of text, light and dark) and scripts/screenshot-like.sh's (the other
benches' screen: two columns of log lines).

  scripts/bench-text.py [--runs N]
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTGUARD = os.path.join(ROOT, ".build", "release", "shotguard")
CORPUS = os.path.join(ROOT, "Tests", "TextTests", "Corpus")
RULES = "text card\ntext email\ntext iban\ntext key\n"


def timed(command, env):
    """Wall seconds and CPU seconds (user + system) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr.decode(errors='replace').strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median(command, env, runs):
    """Median wall and CPU seconds over `runs` runs, after one run to warm the caches."""
    timed(command, env)
    samples = [timed(command, env) for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def main():
    runs = 5
    if "--runs" in sys.argv:
        runs = int(sys.argv[sys.argv.index("--runs") + 1])
    if not os.access(SHOTGUARD, os.X_OK):
        raise SystemExit(f"{SHOTGUARD} is missing: run 'swift build -c release' first (or 'make release')")
    if shutil.which("tesseract") is None:
        raise SystemExit("tesseract is not installed (Debian package 'tesseract-ocr')")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "OMP_THREAD_LIMIT")}
    with tempfile.TemporaryDirectory(prefix="shotguard-bench-text-") as folder:
        rules = os.path.join(folder, "regions")
        with open(rules, "w") as file:
            file.write(RULES)
        empty = os.path.join(folder, "empty")
        open(empty, "w").close()
        log = os.path.join(folder, "screenshot-like.png")
        subprocess.run([os.path.join(ROOT, "scripts", "screenshot-like.sh"), "1920", "1080", log], check=True)
        images = [os.path.join(CORPUS, "00-light.png"), os.path.join(CORPUS, "01-dark.png"), log]
        out = os.path.join(folder, "out.png")
        print(f"\ntext pass, 1920x1080, median of {runs} runs ({os.cpu_count()} cores)")
        print(f"{'image':<22} {'redact+text':>11} {'redact':>8} {'text pass':>10} {'its CPU':>8} "
              f"{'tesseract':>10} {'1 thread':>9} {'ratio':>6}  budget 1.5 s")
        print("  (text pass = redact+text - redact; ratio = tesseract / text pass)")
        for image in images:
            with_text = median([SHOTGUARD, "redact", image, "--regions", rules, "-o", out], env, runs)
            without = median([SHOTGUARD, "redact", image, "--regions", empty, "-o", out], env, runs)
            peer = median(["tesseract", image, "-"], env, runs)
            single = median(["tesseract", image, "-"], dict(env, OMP_THREAD_LIMIT="1"), runs)
            text = with_text[0] - without[0]
            print(f"{os.path.basename(image):<22} {with_text[0]:>10.2f}s {without[0]:>7.2f}s {text:>9.2f}s "
                  f"{with_text[1] - without[1]:>7.2f}s {peer[0]:>9.2f}s {single[0]:>8.2f}s {peer[0] / text:>5.1f}x  "
                  f"{'within' if text <= 1.5 else 'over'}")


if __name__ == "__main__":
    main()
