#!/usr/bin/python3
# A program that reads the screen and writes an image later, as an editor (flameshot's, ksnip)
# or a magnifier does (python3-xlib, python3-pil). Reads the part W x H at X,Y of the root with
# one GetImage (then closes its connection to the X server when an argument after COMMANDS
# says `hang-up`, as ImageMagick's import closes the one it read on; other words there are paths
# it names, as a tool names its output, and are not used), prints "read", then carries out the lines of the FIFO named COMMANDS one at a
# time, printing "done LINE" after each:
#   save PATH            the pixels read, as an image in PATH's format (by its suffix)
#   annotate PATH X Y    the same with a 40 px red cross centred at X,Y of the image drawn on it
#   copy FROM PATH       FROM's bytes into PATH (an unrelated image: a photo)
#   exit
#   held-reader.py X Y W H COMMANDS [hang-up] [PATH]...
import shutil
import sys
from PIL import Image, ImageDraw
from Xlib import X, display

x, y, width, height = (int(value) for value in sys.argv[1:5])
commands = sys.argv[5]
d = display.Display()
reply = d.screen().root.get_image(x, y, width, height, X.ZPixmap, 0xFFFFFFFF)
image = Image.frombytes("RGB", (width, height), reply.data, "raw", "BGRX")
if "hang-up" in sys.argv[6:]:
    d.close()
print("read", flush=True)

with open(commands) as lines:
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "save":
            image.save(words[1])
        elif words[0] == "annotate":
            marked = image.copy()
            draw = ImageDraw.Draw(marked)
            cx, cy = int(words[2]), int(words[3])
            draw.line([(cx - 20, cy), (cx + 20, cy)], fill=(255, 0, 0), width=3)
            draw.line([(cx, cy - 20), (cx, cy + 20)], fill=(255, 0, 0), width=3)
            marked.save(words[1])
        elif words[0] == "copy":
            shutil.copyfile(words[1], words[2])
        elif words[0] == "exit":
            break
        else:
            sys.exit("held-reader: unknown command " + words[0])
        print("done " + line.strip(), flush=True)
