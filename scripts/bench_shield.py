#!/usr/bin/python3
"""`make bench`, the shield's part: Print pressed -> covers mapped, over 100 presses.

A private Xvfb with openbox whose Print binding runs scrot (as a desktop's own binding would),
a window that a rule covers, and `shotguard watch --shield`. Another X client (this script)
presses Print through XTEST and waits for the MapNotify of the agent's override-redirect
cover: that interval holds the server's raw event to the agent, the agent's wake-up, its map
requests and the server's notification back. The agent's own figure (key event read -> map
requests flushed) comes from its log. Also counts the screenshots scrot took with the cover in
place. When picom is installed it runs again under picom (xrender backend), a compositing
manager, whose frames put a mapped window on the screen only milliseconds later: there the
agent also puts the covers' colour into the screen's pixels with their maps.
Nothing here is a pass/fail threshold.

Runs with the system python3 (python3-xlib); usage: bench_shield.py [PRESSES] [WxH].
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from Xlib import X, display as xdisplay
from Xlib.ext import xtest
from xvfb import start_xvfb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTGUARD = os.path.join(ROOT, ".build", "release", "shotguard")
WINDOW = (400, 300, 480, 320)  # x, y, width, height of the covered window's client area


def openbox_config(folder, shots):
    path = os.path.join(folder, "rc.xml")
    with open(path, "w") as file:
        file.write('<?xml version="1.0" encoding="UTF-8"?>\n<openbox_config xmlns="http://openbox.org/3.4/rc">\n'
                   f'<keyboard><keybind key="Print"><action name="Execute"><command>scrot {shots}/scrot.png'
                   '</command></action></keybind></keyboard>\n</openbox_config>\n')
    return path


def next_event(conn, wanted, seconds=10.0):
    """The next event for which `wanted` holds, within `seconds` (None when none came)."""
    deadline = time.perf_counter() + seconds
    while True:
        while conn.pending_events():
            event = conn.next_event()
            if wanted(event):
                return event
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return None
        import select
        select.select([conn.fileno()], [], [], remaining)


def show_window(conn):
    """A window of class Vault, mapped and managed by openbox."""
    screen = conn.screen()
    x, y, width, height = WINDOW
    window = screen.root.create_window(x, y, width, height, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
                                       background_pixel=0x3366CC, event_mask=X.StructureNotifyMask)
    window.set_wm_class("vault", "Vault")
    window.set_wm_name("Vault")
    window.map()
    conn.flush()
    # Viewable, not MapNotify: under a starting compositor the event can come before we look.
    # A map request made while openbox was still starting can be lost: ask again now and then.
    start = time.perf_counter()
    asked = start
    while window.get_attributes().map_state != X.IsViewable:
        if time.perf_counter() > start + 20:
            raise SystemExit("the Vault window was not mapped")
        if time.perf_counter() > asked + 2:
            window.map()
            asked = time.perf_counter()
        time.sleep(0.02)
    return window


def pixel(path, point):
    """The colour of the screenshot at `path` at `point`, as #RRGGBB (ImageMagick reads it)."""
    text = subprocess.run(["/usr/bin/convert", path, "-crop", f"1x1+{point[0]}+{point[1]}", "-depth", "8", "txt:-"],
                          capture_output=True, text=True).stdout
    return text.rsplit("#", 1)[1][:6] if "#" in text else ""


def covered(path, point, desktop):
    """Whether the window's pixel is the cover's black while the desktop (at `desktop`) shows."""
    return pixel(path, point) == "000000" and pixel(path, desktop) == "808080"


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def bench(presses, width, height, compositor=False):
    with tempfile.TemporaryDirectory(prefix="shotguard-bench-shield-") as folder:
        shots = os.path.join(folder, "shots")
        os.makedirs(shots)
        server, name = start_xvfb(width, height)
        env = dict(os.environ, DISPLAY=name, HOME=folder, XDG_CONFIG_HOME=folder)
        manager = subprocess.Popen(["openbox", "--sm-disable", "--config-file", openbox_config(folder, shots)], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        agent = None
        picom = None
        try:
            conn = xdisplay.Display(name)
            root = conn.screen().root
            deadline = time.perf_counter() + 10
            while root.get_full_property(conn.intern_atom("_NET_SUPPORTING_WM_CHECK"), X.AnyPropertyType) is None:
                if time.perf_counter() > deadline:
                    raise SystemExit("openbox did not start")
                time.sleep(0.05)
            if compositor:
                picom = subprocess.Popen(["picom", "--backend", "xrender", "--no-vsync", "--config", "/dev/null"], env=env,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                cm = conn.intern_atom("_NET_WM_CM_S0")
                while conn.get_selection_owner(cm) == X.NONE:
                    if picom.poll() is not None or time.perf_counter() > deadline + 10:
                        raise SystemExit("picom did not start")
                    time.sleep(0.05)
            # A grey desktop and a blue window: a black pixel in a screenshot can only be the cover.
            root.change_attributes(background_pixel=0x808080)
            root.clear_area()
            window = show_window(conn)
            regions = os.path.join(folder, "regions")
            with open(regions, "w") as file:
                file.write("window class=Vault\n")
            log_path = os.path.join(folder, "agent.log")
            log = open(log_path, "w")
            agent = subprocess.Popen([SHOTGUARD, "watch", "--shield", "--no-guard", "--no-clipboard", "--no-tools", "--verbose",
                                      "--regions", regions, "--dir", shots, "--spool", os.path.join(folder, "spool")],
                                     env=env, stdout=subprocess.DEVNULL, stderr=log)
            while "watching display" not in open(log_path).read():
                if agent.poll() is not None:
                    raise SystemExit("the agent stopped: " + open(log_path).read())
                time.sleep(0.05)
            root.change_attributes(event_mask=X.SubstructureNotifyMask)
            conn.sync()
            print_key = conn.keysym_to_keycode(0xFF61)  # XK_Print
            latencies = []
            for _ in range(presses):
                before = len(os.listdir(shots))
                start = time.perf_counter()
                xtest.fake_input(conn, X.KeyPress, print_key)
                conn.flush()
                mapped = next_event(conn, lambda e: e.type == X.MapNotify and e.override)
                if mapped is None:
                    raise SystemExit("no cover was mapped after Print")
                latencies.append((time.perf_counter() - start) * 1e6)
                xtest.fake_input(conn, X.KeyRelease, print_key)
                conn.flush()
                # The covers come down once scrot's file arrived (plus the agent's margin).
                if next_event(conn, lambda e: e.type == X.UnmapNotify and e.window.id == mapped.window.id) is None:
                    raise SystemExit("the cover did not come down")
                while len(os.listdir(shots)) <= before:
                    time.sleep(0.005)
            agent.terminate()
            agent.wait()
            inside = [float(line.split(" covers mapped ")[1].split(" ms")[0]) * 1000
                      for line in open(log_path) if " covers mapped " in line]
            # Where openbox placed the window (it may not honour the requested position).
            origin = root.translate_coords(window, 0, 0)
            centre = (origin.x + WINDOW[2] // 2, origin.y + WINDOW[3] // 2)
            files = sorted(os.listdir(shots))
            covered_count = sum(covered(os.path.join(shots, file), centre, (2, height - 3)) for file in files)
            under = ", under picom (compositing)" if compositor else ""
            print(f"\nshield, {width}x{height}, openbox binding Print to scrot{under}, {presses} presses:")
            print(f"  Print (XTEST) -> cover mapped, seen by another client: median {statistics.median(latencies):.0f} µs, "
                  f"p99 {percentile(latencies, 0.99):.0f} µs, max {max(latencies):.0f} µs")
            if inside:
                print(f"  inside the agent, key event read -> map requests flushed: median {statistics.median(inside):.0f} µs, "
                      f"p99 {percentile(inside, 0.99):.0f} µs")
            print(f"  screenshots by scrot with the cover in place: {covered_count} of {len(files)}")
        finally:
            if agent and agent.poll() is None:
                agent.terminate()
                agent.wait()
            if picom:
                picom.terminate()
                picom.wait()
            manager.terminate()
            manager.wait()
            server.terminate()
            server.wait()


def main():
    presses = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    width, height = (int(v) for v in (sys.argv[2] if len(sys.argv) > 2 else "1920x1080").split("x"))
    if not os.access(SHOTGUARD, os.X_OK):
        raise SystemExit("build shotguard first: make release")
    bench(presses, width, height)
    if shutil.which("picom"):
        bench(presses, width, height, compositor=True)


if __name__ == "__main__":
    main()
