#!/usr/bin/python3
# A report receiver in small, for tests: an HTTP server on 127.0.0.1 that takes what shotguard's
# reporters POST, parses it as a Sentry envelope or as multipart/form-data, saves each payload,
# and writes one JSON line per request to --log. Only the loopback address is ever used.
#
#   --port N           listen on port N (0: a free one); the port is written to --port-file, and
#                      {"ready": PORT} to --log once it listens
#   --answers LIST     the statuses of the first requests, in order (200 after them):
#                      500,429:2,200 answers 500, then 429 with "Retry-After: 2", then 200
#   --hold             hold the first request once its body is read (logged as "held") until the
#                      client goes away (logged as "aborted") or the file --release appears
#   --save DIR         where payloads go: N-image.png, N-report.json, N-event.json
#
# Each line: {"n" (the request's number in this run), "run", "path", "received" (wall time the body was in), "kind": "envelope"|"multipart"|"other",
# "status", "answered", and the
# parse: for an envelope "header", "items" [{type, filename, content_type, length, file}], for a
# form "parts" [{name, filename, content_type, length, file}], "headers" (the request's)}.
import argparse
import json
import os
import select
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--port-file", required=True)
parser.add_argument("--log", required=True)
parser.add_argument("--save", required=True)
parser.add_argument("--answers", default="")
parser.add_argument("--hold", action="store_true")
parser.add_argument("--release")
options = parser.parse_args()

answers = [item for item in options.answers.split(",") if item]
# Runs on the same log are told apart (a service stopped and started again): the run's number is
# how many ready lines the log had before it.
run = 0
if os.path.exists(options.log):
    with open(options.log) as existing:
        run = sum(1 for line in existing if '"ready"' in line)
lock = threading.Lock()
counter = [0]
held = [False]


def record(entry):
    with lock:
        with open(options.log, "a") as log:
            log.write(json.dumps(entry) + "\n")


def save(number, name, data):
    path = os.path.join(options.save, "%d-%s" % (number, name))
    with open(path, "wb") as file:
        file.write(data)
    return path


def parse_envelope(number, body):
    lines = body.split(b"\n", 1)
    header = json.loads(lines[0])
    rest = lines[1] if len(lines) > 1 else b""
    items = []
    while rest.strip():
        item_line, rest = rest.split(b"\n", 1)
        item = json.loads(item_line)
        length = item["length"]
        payload, rest = rest[:length], rest[length:]
        if len(payload) != length:
            raise ValueError("item shorter than its length")
        if rest.startswith(b"\n"):
            rest = rest[1:]
        name = {"event": "event.json", "user_report": "feedback.json"}.get(item["type"], item.get("filename", "item"))
        item["file"] = save(number, name, payload)
        items.append(item)
    return {"header": header, "items": items}


def parse_multipart(number, content_type, body):
    boundary = content_type.split("boundary=", 1)[1].strip().strip('"').encode()
    parts = []
    for chunk in body.split(b"--" + boundary)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, data = chunk.lstrip(b"\r\n").partition(b"\r\n\r\n")
        data = data[:-2] if data.endswith(b"\r\n") else data
        fields = {}
        for line in head.decode().split("\r\n"):
            key, _, value = line.partition(":")
            fields[key.strip().lower()] = value.strip()
        disposition = dict(item.strip().split("=", 1) for item in fields.get("content-disposition", "").split(";")[1:])
        name = disposition.get("name", "").strip('"')
        filename = disposition.get("filename", "").strip('"') or None
        parts.append({"name": name, "filename": filename, "content_type": fields.get("content-type"), "length": len(data),
                      "file": save(number, {"image": "image.png", "report": "report.json"}.get(name, name), data)})
    return {"parts": parts}


class Handler(BaseHTTPRequestHandler):
    # The status line and headers, then the body: without TCP_NODELAY the body waits for the
    # client's delayed ACK (40 ms a request), which is this server's cost, not the client's.
    disable_nagle_algorithm = True

    def do_POST(self):
        with lock:
            counter[0] += 1
            number = counter[0]
            answer = answers.pop(0) if answers else "200"
            hold = options.hold and not held[0]
            held[0] = held[0] or hold
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        entry = {"n": number, "run": run, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "length": len(body),
                 "received": time.time()}
        content_type = self.headers.get("Content-Type", "")
        try:
            if content_type.startswith("application/x-sentry-envelope"):
                entry["kind"] = "envelope"
                entry.update(parse_envelope(number, body))
            elif content_type.startswith("multipart/form-data"):
                entry["kind"] = "multipart"
                entry.update(parse_multipart(number, content_type, body))
            else:
                entry["kind"] = "other"
        except Exception as error:  # a malformed body is what the test must see
            entry["kind"] = "malformed"
            entry["error"] = str(error)
        if hold:
            record(dict(entry, held=True))
            while True:
                if options.release and os.path.exists(options.release):
                    break
                readable, _, _ = select.select([self.connection], [], [], 0.05)
                if readable and not self.connection.recv(1, 0x2):  # MSG_PEEK: EOF when the client is gone
                    record(dict(entry, aborted=True))
                    return
        status, _, retry_after = answer.partition(":")
        self.send_response(int(status))
        if retry_after:
            self.send_header("Retry-After", retry_after)
        self.send_header("Content-Type", "application/json")
        reply = json.dumps({"id": entry.get("header", {}).get("event_id", "")}).encode()
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        try:
            self.wfile.write(reply)
            self.wfile.flush()
            answered = True
        except OSError:
            answered = False
        record(dict(entry, status=int(status), answered=answered))

    def log_message(self, format, *arguments):
        pass


server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
server.daemon_threads = True
with open(options.port_file + ".tmp", "w") as file:
    file.write(str(server.server_address[1]))
os.rename(options.port_file + ".tmp", options.port_file)
record({"ready": server.server_address[1]})
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
