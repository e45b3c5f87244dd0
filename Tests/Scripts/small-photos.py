#!/usr/bin/python3
# Writes COUNT small distinct PNG "photos" (64x64, RGB noise, like a camera's thumbnails) into
# FOLDER as photo-00000.png..., quickly: the tests' stand-in for a photo import.
#   small-photos.py COUNT FOLDER
import os, struct, sys, zlib


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


count, folder = int(sys.argv[1]), sys.argv[2]
header = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0))
end = chunk(b"IEND", b"")
for index in range(count):
    rows = b"".join(b"\x00" + os.urandom(64 * 3) for _ in range(64))
    with open(os.path.join(folder, "photo-%05d.png" % index), "wb") as out:
        out.write(header + chunk(b"IDAT", zlib.compress(rows, 1)) + end)
