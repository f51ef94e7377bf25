#!/usr/bin/env python3
"""A scripted login server for HTTPLoginAPI's integration tests and for trying login-demo.

Standard library only. It binds 127.0.0.1 (or --host, e.g. 127.0.0.2) on a free port
(or --port), prints

    PORT 54321

as its first line on stdout, flushes, and serves until --lifetime seconds (default 120) have
passed, then exits by itself. Stop it earlier with SIGTERM (its PID) or Ctrl-C.

Contract (what HTTPLoginAPI sends): POST <any prefix>/login, Content-Type: application/json,
Accept: application/json, body {"username": ..., "password": ...}, no query string. A request
that breaks it gets 404 (path), 405 (method), 400 (query or malformed JSON), 415 (content type)
or 406 (accept), with a JSON {"error": ...} body.

The username chooses the behaviour (so login-demo can reach every one of them by typing):

    username         password      answer
    demo             Secr3t        200 {"token": "fixture-token-demo", "user": {"id": "1",
                                   "name": "Demo User", "username": "demo",
                                   "email": "demo@example.com"}}
    ada@example.com  Engine1843    200, a user without "id" and with "email": null
    demo / ada       anything else 401
    forbidden        any           403
    status500        any           500
    empty            any           200 with an empty body
    garbage          any           200 with a body that is not JSON
    huge             any           200 with a 2 MiB body, Content-Length declared
    flood            any           200 streaming 8 MiB, no Content-Length (ends at close)
    trailers         any           200 chunked, the last chunk (0) at once, then trailer lines
                                   without end for --hostile-seconds (default 15): a trailer
                                   flood
    crumbs           any           200 chunked, --crumbs chunks of one byte each (a million by
                                   default: 6 MB on the wire, 1,000,000 bytes of body), then
                                   the last chunk
    silent           any           reads the request and never answers
    hangup           any           reads the request and closes the connection, answering
                                   nothing
    slow             any           answers like demo after --slow-delay seconds (default 3)
    drip             any           200 like demo, headers at once, then the body one byte every
                                   --drip-interval seconds (default 0.25), Content-Length declared
    chunked          any           200 like demo, Transfer-Encoding: chunked (3 chunks)
    cutoff           any           200 declaring the demo body's length, then half of it and
                                   the connection closed
    cookie           any           200 like demo, with Set-Cookie: fixture_session=...
    moved301, moved302, moved303, moved307, moved308
                     any           that status, with Location: <--redirect-to>/login
    echo...          any           200 whose user.name and user.username are the username
                                   and whose token is the password, exactly as received
                                   (any username starting with "echo")
    grace            Cobol1959     200 {"challenge": {"id": "fixture-challenge-<n>", "destination":
                                   "•••• 42", "codeLength": 6, "expiresIn": 300}}: a second factor
    anyone else      any           401

Second factor: POST <prefix>/login/verify {"challenge": id, "code": "424242"} answers 200 with
grace's session for the latest code sent (424242, then 171717 after a resend), 410 for the
code 000000 (scripted "expired") and for an unknown or ended challenge, 401 for any other code;
the third wrong code ends the challenge. POST <prefix>/login/resend {"challenge": id} answers
200 with the challenge, its code now 171717, or 429 with Retry-After (whole seconds) while
--resend-delay seconds (default 30) have not passed since the last code; 410 for an unknown
challenge. They are logged as `VERIFY <id>` and `RESEND <id>`, never with the code.

Password reset: POST <prefix>/password/reset {"email": ...} answers by address, as DemoLoginAPI
does, and the same whether or not an account has it:

    email                 answer
    limited@example.com   429 with Retry-After: 30
    garbled@example.com   429 with Retry-After: soon (neither seconds nor a date)
    broken@example.com    500
    silent@example.com    reads the request and never answers (as the user `silent`)
    not an email address  400 (no "@" and ".", or not a string)
    any other address     202 with an empty body

They are logged as `RESET <n>` (the request's number), never with the address.

Every request of any method and path is logged on stdout first as

    HIT <METHOD> <path> cookie=<yes|no>

(whether it carried a Cookie header, never its value), and every well-formed login request then as
`REQUEST <username>` — never the password. A drip that the client abandons is logged as
`DRIP ABORTED <bytes sent>`; one that completes as `DRIP DONE <bytes sent>`. The hostile
answers log `HOSTILE <username> ABORTED` when the client hangs up and `HOSTILE <username> DONE`
when they run to their end.
"""

import argparse
import itertools
import json
import os
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ACCOUNTS = {
    "demo": (
        "Secr3t",
        {"id": "1", "name": "Demo User", "username": "demo", "email": "demo@example.com"},
    ),
    "ada@example.com": (
        "Engine1843",
        {"name": "Ada Lovelace", "username": "ada@example.com", "email": None},
    ),
}

GRACE = {"id": "3", "name": "Grace Hopper", "username": "grace", "email": None}
CHALLENGES = {}
CHALLENGES_LOCK = threading.Lock()
CHALLENGE_NUMBERS = itertools.count(1)
RESET_NUMBERS = itertools.count(1)
RESEND_DELAY = 30.0

STOPPING = threading.Event()
SLOW_DELAY = 3.0
DRIP_INTERVAL = 0.25
HOSTILE_SECONDS = 15.0
CRUMBS = 1_000_000
REDIRECT_TO = ""
REDIRECT_STATUSES = {"moved301": 301, "moved302": 302, "moved303": 303, "moved307": 307,
                     "moved308": 308}
OUTPUT_LOCK = threading.Lock()


def log(line):
    with OUTPUT_LOCK:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class LoginHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "LoginFixture/1"

    def log_message(self, format, *args):
        # The default logs the request line to stderr; our own log is on stdout, one line per
        # request, without secrets.
        pass

    def parse_request(self):
        # Every request, whatever its method, path or body, is logged before it is judged: tests
        # that must see no request at all (a refused redirect) count these lines.
        if not super().parse_request():
            return False
        cookie = "yes" if self.headers.get("Cookie") is not None else "no"
        log("HIT %s %s cookie=%s" % (self.command, self.path.partition("?")[0], cookie))
        return True

    def do_GET(self):
        self.send_json(405, {"error": "use POST"})

    do_PUT = do_GET
    do_DELETE = do_GET

    def do_POST(self):
        path, _, query = self.path.partition("?")
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length > 0 else b""
        if not path.endswith(("/login", "/login/verify", "/login/resend", "/password/reset")):
            return self.send_json(404, {"error": "no such path"})
        if query:
            return self.send_json(400, {"error": "nothing belongs in the query"})
        if self.headers.get("Content-Type") != "application/json":
            return self.send_json(415, {"error": "Content-Type must be application/json"})
        if self.headers.get("Accept") != "application/json":
            return self.send_json(406, {"error": "Accept must be application/json"})
        if path.endswith(("/login/verify", "/login/resend")):
            return self.second_factor(path, raw)
        if path.endswith("/password/reset"):
            return self.password_reset(raw)
        try:
            body = json.loads(raw.decode("utf-8"))
            username = body["username"]
            password = body["password"]
            if not isinstance(username, str) or not isinstance(password, str):
                raise ValueError("username and password must be strings")
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            return self.send_json(400, {"error": "body must be {username, password}"})

        log("REQUEST " + json.dumps(username))
        self.answer(username, password)

    def second_factor(self, path, raw):
        try:
            body = json.loads(raw.decode("utf-8"))
            challenge_id = body["challenge"]
            code = body.get("code", "")
            if not isinstance(challenge_id, str) or not isinstance(code, str):
                raise ValueError("challenge and code must be strings")
        except (ValueError, KeyError, TypeError, UnicodeDecodeError, AttributeError):
            return self.send_json(400, {"error": "body must be {challenge, code}"})
        now = time.monotonic()
        with CHALLENGES_LOCK:
            entry = CHALLENGES.get(challenge_id)
            if path.endswith("/verify"):
                log("VERIFY " + json.dumps(challenge_id))
                if entry is None or code == "000000":
                    return self.send_json(410, {"error": "the code has expired"})
                if code != entry["code"]:
                    entry["wrong"] += 1
                    if entry["wrong"] >= 3:
                        del CHALLENGES[challenge_id]
                    return self.send_json(401, {"error": "incorrect code"})
                del CHALLENGES[challenge_id]
                return self.send_json(200, {"token": "fixture-token-grace", "user": GRACE})
            log("RESEND " + json.dumps(challenge_id))
            if entry is None:
                return self.send_json(410, {"error": "the challenge has ended"})
            wait = RESEND_DELAY - (now - entry["sent"])
            if wait > 0:
                seconds = str(int(wait) + (1 if wait > int(wait) else 0))
                return self.send_bytes(
                    429, b'{"error": "too soon"}', "application/json", [("Retry-After", seconds)])
            entry["code"] = "171717"
            entry["sent"] = now
            return self.send_json(200, {"challenge": self.challenge_body(challenge_id)})

    def password_reset(self, raw):
        try:
            email = json.loads(raw.decode("utf-8"))["email"]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            return self.send_json(400, {"error": "body must be {email}"})
        log("RESET %d" % next(RESET_NUMBERS))
        if not isinstance(email, str) or "@" not in email or "." not in email:
            return self.send_json(400, {"error": "not an email address"})
        if email == "limited@example.com":
            return self.send_bytes(
                429, b'{"error": "too many requests"}', "application/json",
                [("Retry-After", "30")])
        if email == "garbled@example.com":
            return self.send_bytes(
                429, b'{"error": "too many requests"}', "application/json",
                [("Retry-After", "soon")])
        if email == "broken@example.com":
            return self.send_json(500, {"error": "scripted failure"})
        if email == "silent@example.com":
            while not STOPPING.wait(0.05):
                pass
            return None
        return self.send_bytes(202, b"", "application/json")

    @staticmethod
    def challenge_body(challenge_id):
        return {"id": challenge_id, "destination": "•••• 42", "codeLength": 6, "expiresIn": 300}

    def answer(self, username, password):
        if username == "grace":
            if password != "Cobol1959":
                return self.send_json(401, {"error": "invalid credentials"})
            with CHALLENGES_LOCK:
                challenge_id = "fixture-challenge-%d" % next(CHALLENGE_NUMBERS)
                CHALLENGES[challenge_id] = {"code": "424242", "sent": time.monotonic(), "wrong": 0}
            return self.send_json(200, {"challenge": self.challenge_body(challenge_id)})
        if username in ACCOUNTS:
            expected, user = ACCOUNTS[username]
            if password == expected:
                return self.send_json(200, {"token": "fixture-token-" + username, "user": user})
            return self.send_json(401, {"error": "invalid credentials"})
        if username.startswith("echo"):
            user = {"name": username, "username": username, "email": None}
            return self.send_json(200, {"token": password, "user": user})
        if username == "forbidden":
            return self.send_json(403, {"error": "forbidden"})
        if username == "status500":
            return self.send_json(500, {"error": "scripted failure"})
        if username == "empty":
            return self.send_bytes(200, b"", "application/json")
        if username == "garbage":
            return self.send_bytes(200, b"<html>not json</html>", "text/html")
        if username == "huge":
            padding = "x" * (2 * 1024 * 1024)
            user = dict(ACCOUNTS["demo"][1], padding=padding)
            return self.send_json(200, {"token": "fixture-token-huge", "user": user})
        if username == "flood":
            return self.flood(8 * 1024 * 1024)
        if username == "hangup":
            # Not a byte back: the connection closes under the client.
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return None
        if username == "silent":
            # Keep the connection open and say nothing until the client leaves or we stop.
            while not STOPPING.wait(0.05):
                pass
            return None
        if username == "drip":
            return self.drip(self.demo_body("fixture-token-drip"))
        if username == "trailers":
            return self.hostile_chunked(username, b"0\r\n", self.trailer_lines())
        if username == "crumbs":
            return self.hostile_chunked(username, b"", [b"1\r\nx\r\n" * CRUMBS, b"0\r\n\r\n"])
        if username == "cutoff":
            data = self.demo_body("fixture-token-cutoff")
            self.send_declared_headers(data)
            try:
                self.wfile.write(data[:len(data) // 2])
            except (BrokenPipeError, ConnectionResetError):
                pass
            return None
        if username == "chunked":
            return self.chunked(self.demo_body("fixture-token-chunked"))
        if username == "cookie":
            body = self.demo_body("fixture-token-cookie")
            cookie = "fixture_session=fixture-cookie-value; Path=/; HttpOnly"
            return self.send_bytes(200, body, "application/json", [("Set-Cookie", cookie)])
        if username in REDIRECT_STATUSES:
            location = REDIRECT_TO.rstrip("/") + "/login"
            return self.send_bytes(
                REDIRECT_STATUSES[username], b"", "application/json", [("Location", location)])
        if username == "slow":
            STOPPING.wait(SLOW_DELAY)
            _, user = ACCOUNTS["demo"]
            return self.send_json(200, {"token": "fixture-token-slow", "user": user})
        return self.send_json(401, {"error": "invalid credentials"})

    @staticmethod
    def demo_body(token):
        """The JSON body of a successful login as the demo user, with `token`."""
        return json.dumps({"token": token, "user": ACCOUNTS["demo"][1]}).encode("utf-8")

    def send_declared_headers(self, data):
        """Sends status 200 and headers that declare all of `data` and close the connection
        after it; the caller writes the body, whole or not."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def send_json(self, status, value):
        self.send_bytes(status, json.dumps(value).encode("utf-8"), "application/json")

    def send_bytes(self, status, data, content_type, extra_headers=()):
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in extra_headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            # The client stopped reading (a capped body, a cancelled request): not our error.
            self.close_connection = True

    def drip(self, data):
        # The headers go at once; the body, declared in full, follows one byte at a time. Only a
        # client with a deadline on the whole exchange (not on each read) gives up early.
        self.send_declared_headers(data)
        sent = 0
        try:
            self.wfile.flush()
            while sent < len(data) and not STOPPING.is_set():
                if STOPPING.wait(DRIP_INTERVAL):
                    break
                self.wfile.write(data[sent:sent + 1])
                self.wfile.flush()
                sent += 1
        except (BrokenPipeError, ConnectionResetError):
            log("DRIP ABORTED %d" % sent)
            return
        log("DRIP DONE %d" % sent)

    def chunked(self, data):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        third = len(data) // 3
        try:
            for part in (data[:third], data[third:2 * third], data[2 * third:]):
                self.wfile.write(b"%x;ext=1\r\n%s\r\n" % (len(part), part))
                self.wfile.flush()
            self.wfile.write(b"0\r\nX-Trailer: done\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    @staticmethod
    def trailer_lines():
        """Trailer lines, 64 KiB at a time, for --hostile-seconds, without the empty line that
        would end them."""
        lines = b"X-Trailer-Flood: y\r\n" * 3277
        deadline = time.monotonic() + HOSTILE_SECONDS
        while time.monotonic() < deadline:
            yield lines

    def hostile_chunked(self, username, start, parts):
        """A 200 chunked answer: `start`, then each of `parts`, until the client hangs up."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(start)
            for part in parts:
                if STOPPING.is_set():
                    break
                self.wfile.write(part)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            log("HOSTILE %s ABORTED" % username)
            return
        log("HOSTILE %s DONE" % username)

    def flood(self, total):
        # No Content-Length: the body ends when the connection closes, so only a client that
        # counts what it receives can stop it.
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        chunk = b"[" + b"0," * 32767 + b"0"
        sent = 0
        try:
            while sent < total and not STOPPING.is_set():
                self.wfile.write(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    global SLOW_DELAY, DRIP_INTERVAL, REDIRECT_TO, RESEND_DELAY, HOSTILE_SECONDS, CRUMBS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (default)")
    parser.add_argument("--lifetime", type=float, default=120, help="seconds before it exits")
    parser.add_argument("--slow-delay", type=float, default=3, help="seconds `slow` waits")
    parser.add_argument(
        "--drip-interval", type=float, default=0.25, help="seconds between the bytes of `drip`")
    parser.add_argument(
        "--hostile-seconds", type=float, default=15,
        help="seconds the trailer flood of `trailers` lasts")
    parser.add_argument(
        "--crumbs", type=int, default=1_000_000, help="one-byte chunks `crumbs` sends")
    parser.add_argument(
        "--redirect-to", default="http://127.0.0.1:9", help="base URL the moved3xx users go to")
    parser.add_argument(
        "--resend-delay", type=float, default=30, help="seconds before a code can be resent")
    parser.add_argument(
        "--host", default="127.0.0.1", help="IPv4 loopback address to bind: 127.0.0.1, 127.0.0.2")
    arguments = parser.parse_args()
    SLOW_DELAY = arguments.slow_delay
    DRIP_INTERVAL = arguments.drip_interval
    REDIRECT_TO = arguments.redirect_to
    RESEND_DELAY = arguments.resend_delay
    HOSTILE_SECONDS = arguments.hostile_seconds
    CRUMBS = arguments.crumbs

    # The parent's signal mask and ignored signals survive exec (a `swift test` child starts with
    # SIGTERM blocked): unblock everything and make SIGTERM end us, so "stop by PID" works.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, lambda number, frame: os._exit(0))
    server = ThreadingHTTPServer((arguments.host, arguments.port), LoginHandler)
    server.daemon_threads = True
    log("PORT %d" % server.server_address[1])

    def stop_later():
        STOPPING.wait(arguments.lifetime)
        STOPPING.set()
        server.shutdown()

    threading.Thread(target=stop_later, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        STOPPING.set()
        server.server_close()


if __name__ == "__main__":
    main()
