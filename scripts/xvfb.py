"""A private Xvfb server for the benches: started with -displayfd, so no display number is guessed."""
import os
import subprocess


def start_xvfb(width, height):
    """Starts Xvfb at width x height (24-bit) and returns the process and its display name."""
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
