#!/usr/bin/env python3
"""A stand-in for Volumio's or moOde's web server, speaking only the volume part of each one's
documented API over Python's own HTTP/1.1 server (neither player is a Debian package, and the tests
have no network to reach a real one).

Volumio, REST API (https://developers.volumio.com/api/rest-api):
  GET /api/v1/getState                           -> the player's state, with "volume" (0-100) and "mute"
  GET /api/v1/commands/?cmd=volume&volume=N      -> {"time": ..., "response": "volume Success"}
      (volume also takes "mute" and "unmute")
  Volumio's web server is Node's Express, which frames its JSON answers with Content-Length.

moOde, command interface (www/command/index.php in moOde's source, moode-player/moode):
  GET /command/?cmd=get_volume                   -> {"volume": "N", "muted": "no"|"yes"} (vol.sh's output)
  GET /command/?cmd=set_volume N                 -> runs vol.sh N, then answers as get_volume
  GET /command/?cmd=set_volume -mute             -> toggles the mute, then answers as get_volume
  moOde's web server is nginx with PHP-FPM, whose answers come with chunked transfer coding.

For the tests only (none of them logged): GET /test/ui?volume=N changes the volume as the player's
own page would; GET /test/state answers {"volume": N, "mute": true|false}. GET /test/hold holds each
request from then on, logged but unanswered; GET /test/release lets the oldest one held be answered,
from the player's state as it is then, and answers {"released": true} (false when none was held);
GET /test/open holds no more and lets all held be answered.

Usage: fake_player.py volumio|moode PORT_FILE LOG_FILE [DELAY_SECONDS] [PORT]
Writes the port it listens on (127.0.0.1) to PORT_FILE, and each request's target to LOG_FILE.
"""
import http.server
import json
import sys
import threading
import time
import urllib.parse

kind, port_file, log_file = sys.argv[1], sys.argv[2], sys.argv[3]
delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
port = int(sys.argv[5]) if len(sys.argv) > 5 else 0
state = {"volume": 50, "mute": False}
gate = {"holding": False, "held": []}  # the held requests' events, oldest first
gate_lock = threading.Lock()
log = open(log_file, "a", buffering=1)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def answer(self, value, chunked=False):
        body = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(body), 7):
                piece = body[start:start + 7]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/test/ui":
            state["volume"] = int(query["volume"][0])
            return self.answer({"ok": True})
        if url.path == "/test/state":
            return self.answer(state)
        if url.path == "/test/hold":
            with gate_lock:
                gate["holding"] = True
            return self.answer({"released": False})
        if url.path == "/test/release":
            with gate_lock:
                oldest = gate["held"].pop(0) if gate["held"] else None
            if oldest:
                oldest.set()
            return self.answer({"released": oldest is not None})
        if url.path == "/test/open":
            with gate_lock:
                gate["holding"] = False
                held, gate["held"] = gate["held"], []
            for event in held:
                event.set()
            return self.answer({"released": bool(held)})
        with gate_lock:  # logged once held: a release after the line is seen finds it
            held = threading.Event() if gate["holding"] else None
            if held:
                gate["held"].append(held)
            log.write(self.path + "\n")
        if held:
            held.wait()
        time.sleep(delay)
        if kind == "volumio" and url.path == "/api/v1/getState":
            return self.answer({"status": "stop", "title": "", "volume": state["volume"], "mute": state["mute"]})
        if kind == "volumio" and url.path == "/api/v1/commands/" and query.get("cmd") == ["volume"]:
            value = query["volume"][0]
            if value == "mute":
                state["mute"] = True
            elif value == "unmute":
                state["mute"] = False
            else:
                state["volume"] = max(0, min(100, int(value)))
            return self.answer({"time": int(time.time() * 1000), "response": "volume Success"})
        if kind == "moode" and url.path == "/command/":
            words = query.get("cmd", [""])[0].split(" ")
            if words[0] == "set_volume" and len(words) == 2:
                if words[1] == "-mute":
                    state["mute"] = not state["mute"]
                else:
                    state["volume"] = max(0, min(100, int(words[1])))
            elif words[0] != "get_volume":
                return self.answer({"alert": "unknown command"}, chunked=True)
            return self.answer({"volume": str(state["volume"]), "muted": "yes" if state["mute"] else "no"}, chunked=True)
        self.send_error(404)


server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
