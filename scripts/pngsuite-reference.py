#!/usr/bin/env python3
"""Writes the PngSuite reference: each file's size and an FNV-1a-64 hash of its RGBA8 pixels
as decoded by ImageMagick, an independent decoder. Run once; the output is committed.

shotguard keeps samples as stored and ignores gamma and colour-space chunks (screenshots are
matched and redacted pixel for pixel), so those chunks are removed before ImageMagick reads
the file; otherwise it would apply the PngSuite files' gAMA of 1.0.

usage: scripts/pngsuite-reference.py Tests/ImagingTests/Fixtures/pngsuite > Tests/ImagingTests/Fixtures/pngsuite-reference.txt
"""
import glob
import os
import struct
import subprocess
import sys

COLOUR_SPACE_CHUNKS = {b"gAMA", b"cHRM", b"sRGB", b"iCCP"}


def without_colour_space_chunks(data):
    out = bytearray(data[:8])
    offset = 8
    while offset + 12 <= len(data):
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        end = offset + 12 + length
        if data[offset + 4:offset + 8] not in COLOUR_SPACE_CHUNKS:
            out += data[offset:end]
        offset = end
    return bytes(out)


def fnv1a64(data):
    value = 0xCBF29CE484222325
    for byte in data:
        value ^= byte
        value = (value * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def bit_depth(png):
    return png[24]


def rgba8(png):
    """ImageMagick's pixels as R,G,B,A bytes; 16-bit samples reduced by rounding to nearest,
    (v * 255 + 32767) // 65535, and fully transparent pixels as 0,0,0,0 (their colour is not
    part of the image)."""
    if bit_depth(png) == 16:
        raw = subprocess.run(["/usr/bin/convert", "png:-", "-depth", "16", "-endian", "MSB", "rgba:-"],
                             input=png, check=True, capture_output=True).stdout
        samples = struct.unpack(f">{len(raw) // 2}H", raw)
        pixels = bytes((v * 255 + 32767) // 65535 for v in samples)
    else:
        pixels = subprocess.run(["/usr/bin/convert", "png:-", "-depth", "8", "rgba:-"],
                                input=png, check=True, capture_output=True).stdout
    out = bytearray()
    for i in range(0, len(pixels), 4):
        out += pixels[i:i + 4] if pixels[i + 3] else b"\0\0\0\0"
    return bytes(out)


def main(folder):
    for path in sorted(glob.glob(os.path.join(folder, "*.png"))):
        size = subprocess.run(["/usr/bin/identify", "-format", "%w %h", path],
                              check=True, capture_output=True, text=True).stdout.split()
        with open(path, "rb") as file:
            png = without_colour_space_chunks(file.read())
        rgba = rgba8(png)
        print(f"{os.path.basename(path)} {size[0]}x{size[1]} {fnv1a64(rgba):016x}")


if __name__ == "__main__":
    main(sys.argv[1])
