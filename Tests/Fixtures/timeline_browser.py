#!/usr/bin/env python3
"""Drives headless Chromium over the DevTools protocol to check `replay --html` pages.

Standard library only: a minimal WebSocket client (socket + base64 + hashlib), the DevTools
protocol as JSON messages over it. Chromium is started with its own throw-away profile, on a
port it picks itself (read back from the DevToolsActivePort file), and killed at the end;
every wait is bounded, and the whole run stops itself after --timeout seconds.

  timeline_browser.py check --session A.html --divergent B.html --hostile C.html --screenshot S.png
      presses keys, types in the filter, drags the slider, reads the pages back; prints one
      JSON object of observations (the Swift test `TimelineBrowserTests` judges them)
  timeline_browser.py screenshot PAGE OUT.png [--step N] [--filter TEXT]
      a screenshot of PAGE at step N, for the documentation
  timeline_browser.py lines PAGE
      the State tab's lines of every step, and what the state filter matches in each
  timeline_browser.py bench PAGE
      how long the page takes to show its first step, and to move to other steps

Exit status: 0 done, 1 a failure while driving the browser, 3 no browser found.
"""

import argparse
import base64
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib

NO_BROWSER = 3


class DriverError(Exception):
    pass


def find_browser():
    """The Chromium to run: $CHROMIUM, else the first of the usual names on PATH."""
    explicit = os.environ.get("CHROMIUM")
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


# ---- A minimal WebSocket client (RFC 6455): text frames, masking, ping, close.

class WebSocket:
    def __init__(self, host, port, path, timeout):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise DriverError("the browser closed the connection during the handshake")
            response += chunk
        head, self.buffer = response.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0]:
            raise DriverError(f"WebSocket handshake refused: {lines[0]}")
        accept = base64.b64encode(
            hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
        ).decode()
        headers = {
            line.split(":", 1)[0].strip().lower(): line.split(":", 1)[1].strip()
            for line in lines[1:] if ":" in line
        }
        if headers.get("sec-websocket-accept") != accept:
            raise DriverError("WebSocket handshake: wrong Sec-WebSocket-Accept")

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(max(65536, count - len(self.buffer)))
            if not chunk:
                raise DriverError("the browser closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            opcode = first & 0x0F
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if second & 0x80 else None
            payload = self._read(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0x8:
                raise DriverError("the browser closed the WebSocket")
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self):
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


# ---- Chromium and the DevTools protocol.

class Browser:
    def __init__(self, executable, timeout, width=1280, height=860):
        self.profile = tempfile.mkdtemp(prefix="timeline-browser-")
        self.timeout = timeout
        self.socket = None
        try:
            self.process = self._launch(executable, width, height)
        except BaseException:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        try:
            self._attach(timeout)
        except BaseException:
            # A browser that started but could not be driven (or the time ran out) must not
            # outlive the driver.
            self.close()
            raise

    def _launch(self, executable, width, height):
        return subprocess.Popen(
            [
                executable, "--headless=new", "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}", "--no-first-run",
                "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                "--disable-background-networking", "--disable-sync", "--mute-audio",
                "--hide-scrollbars", f"--window-size={width},{height}",
                "--allow-file-access-from-files", "about:blank",
            ]
            + (["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )

    def _attach(self, timeout):
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + timeout
        lines = []
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise DriverError(f"the browser exited at start (status {self.process.returncode})")
            try:
                with open(port_file) as handle:
                    lines = handle.read().split("\n")
                if len(lines) >= 2 and lines[0].strip() and lines[1].strip():
                    break
            except FileNotFoundError:
                pass
            time.sleep(0.05)
        else:
            raise DriverError("the browser did not write DevToolsActivePort in time")
        self.socket = WebSocket("127.0.0.1", int(lines[0]), lines[1].strip(), timeout)
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call(
            "Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.page("Page.enable")
        self.page("Runtime.enable")

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            reply = json.loads(self.socket.receive())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise DriverError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)
        raise DriverError(f"{method}: no answer in time")

    def page(self, method, params=None):
        return self.call(method, params, self.session)

    def evaluate(self, expression):
        result = self.page("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise DriverError(f"script error: {text}\n  in: {expression[:160]}")
        return result.get("result", {}).get("value")

    def open(self, path):
        """Loads a page from disk and waits until its script says it is ready."""
        self.events = []
        url = "file://" + os.path.abspath(path)
        self.page("Page.navigate", {"url": url})
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            ready = self.evaluate(
                "document.readyState === 'complete' && "
                "document.body && document.body.dataset.ready === 'true' && "
                f"location.href.split('#')[0] === {json.dumps(url)}")
            if ready:
                return
            time.sleep(0.05)
        errors = [e["params"] for e in self.events if e["method"] == "Runtime.exceptionThrown"]
        raise DriverError(f"the page did not get ready in time: {errors[:1]}")

    def key(self, key, code=None, keycode=0, text=None):
        base = {"key": key, "code": code or key, "windowsVirtualKeyCode": keycode,
                "nativeVirtualKeyCode": keycode}
        # A key that types nothing (an arrow, Escape) goes down as Chromium's own input does.
        down = dict(base, type="rawKeyDown" if text is None else "keyDown")
        if text is not None:
            down["text"] = text
        self.page("Input.dispatchKeyEvent", down)
        self.page("Input.dispatchKeyEvent", dict(base, type="keyUp"))

    def next_frames(self):
        """Waits until the page has drawn two more animation frames: what a script changed
        before is on the screen."""
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def type_text(self, text):
        self.page("Input.insertText", {"text": text})

    def mouse(self, kind, x, y, buttons=0):
        moving = kind == "mouseMoved"
        self.page("Input.dispatchMouseEvent", {
            "type": kind, "x": x, "y": y,
            "button": "none" if moving and not buttons else "left",
            "buttons": buttons, "clickCount": 0 if moving else 1})

    def drag(self, x0, y0, x1, y1, steps=8):
        self.mouse("mouseMoved", x0, y0)
        self.mouse("mousePressed", x0, y0, 1)
        for k in range(1, steps + 1):
            self.mouse("mouseMoved", x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps, 1)
        self.mouse("mouseReleased", x1, y1)

    def screenshot(self, path, scale=1.0):
        params = {"format": "png", "captureBeyondViewport": False}
        if scale != 1.0:
            metrics = self.page("Page.getLayoutMetrics")["cssVisualViewport"]
            params["clip"] = {"x": 0, "y": 0, "width": metrics["clientWidth"],
                              "height": metrics["clientHeight"], "scale": scale}
        data = base64.b64decode(self.page("Page.captureScreenshot", params)["data"])
        with open(path, "wb") as handle:
            handle.write(data)
        return data

    def dialogs(self):
        return [e for e in self.events if e["method"] == "Page.javascriptDialogOpening"]

    def exceptions(self):
        return [e["params"]["exceptionDetails"].get("exception", {}).get("description", "")
                for e in self.events if e["method"] == "Runtime.exceptionThrown"]

    def close(self):
        try:
            if self.socket:
                self.socket.close()
        except Exception:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        shutil.rmtree(self.profile, ignore_errors=True)


# ---- Reading a PNG back (to tell a blank screenshot from a page).

def png_pixels(data):
    """Width, height and RGBA rows of an 8-bit RGB or RGBA PNG without interlacing."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise DriverError("the screenshot is not a PNG")
    position, chunks, width, height, kind = 8, b"", 0, 0, 0
    while position < len(data):
        length, name = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if name == b"IHDR":
            width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or kind not in (2, 6) or interlace:
                raise DriverError("unexpected PNG layout")
        elif name == b"IDAT":
            chunks += body
        position += 12 + length
    channels = 4 if kind == 6 else 3
    raw = zlib.decompress(chunks)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        offset = y * (stride + 1)
        kind_of_filter = raw[offset]
        row = bytearray(raw[offset + 1:offset + 1 + stride])
        for x in range(stride):
            left = row[x - channels] if x >= channels else 0
            up = previous[x]
            if kind_of_filter == 1:
                row[x] = (row[x] + left) & 0xFF
            elif kind_of_filter == 2:
                row[x] = (row[x] + up) & 0xFF
            elif kind_of_filter == 3:
                row[x] = (row[x] + ((left + up) >> 1)) & 0xFF
            elif kind_of_filter == 4:
                corner = previous[x - channels] if x >= channels else 0
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                best = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                row[x] = (row[x] + best) & 0xFF
        rows.append(bytes(row))
        previous = row
    return width, height, channels, rows


def blankness(data):
    """How much a screenshot shows: its distinct colours, and the share of pixels that differ
    from the most common colour."""
    width, height, channels, rows = png_pixels(data)
    counts = {}
    for row in rows:
        for x in range(0, width * channels, channels):
            colour = row[x:x + 3]
            counts[colour] = counts.get(colour, 0) + 1
    background = max(counts.values())
    return {"width": width, "height": height, "colours": len(counts),
            "nonBackgroundShare": round(1 - background / (width * height), 4)}


# ---- What the checks read from a page.

READ_STEP = """(() => {
  const text = id => document.getElementById(id).textContent;
  const screen = document.getElementById('screen');
  const q = sel => [...screen.querySelectorAll(sel)];
  return {
    selected: timeline.selected(),
    headline: text('step-headline'),
    position: text('position'),
    slider: Number(document.getElementById('slider').value),
    diff: [...document.querySelectorAll('#diff > div')].map(d => d.textContent),
    state: [...document.querySelectorAll('#state-tree .leaf, #state-tree summary')]
      .map(d => d.textContent),
    effects: [...document.querySelectorAll('#effects li')].map(d => d.textContent),
    screen: {
      fields: q('.field').map(f => [f.querySelector('.label').textContent,
                                    f.querySelector('.input').textContent]),
      texts: q('.text').map(t => [t.className.replace('text tone-', ''), t.textContent]),
      buttons: q('.button').map(b => [b.textContent, !b.classList.contains('disabled')]),
      spinner: q('.spinner').map(s => s.textContent),
      alert: q('.alert').map(a => a.textContent),
      path: q('.path').map(p => p.textContent),
      headings: q('.heading').map(h => h.textContent),
    },
    selectedRows: [...document.querySelectorAll('#list .row.selected')].map(r => r.textContent),
  };
})()"""

READ_LIST = """(() => ({
  info: document.getElementById('list-info').textContent,
  rows: [...document.querySelectorAll('#list .row')]
    .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
    .map(r => r.className.replace('row ', '') + '|' +
      (r.children.length ? [...r.children].map(c => c.textContent).join(' ') : r.textContent)),
  rowCount: document.querySelectorAll('#list .row').length,
}))()"""

READ_PAGE = """(() => ({
  title: document.title,
  status: document.getElementById('status').textContent,
  statusClass: document.getElementById('status').className,
  facts: [...document.querySelectorAll('#facts dt')].map(
    dt => [dt.textContent, dt.nextElementSibling.textContent]),
  warnings: [...document.querySelectorAll('#warnings li')].map(li => li.textContent),
  images: document.images.length,
  scripts: document.scripts.length,
  bodyText: document.body.innerText.length,
  pwned: window.pwned === true,
}))()"""


READ_ROWS = """(() => [...document.querySelectorAll('#list .row.step, #list .row.effect')]
  .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
  .map(r => {
    const part = sel => { const e = r.querySelector(sel); return e ? e.textContent : null; };
    return { kind: r.classList.contains('step') ? 'step' : 'effect',
      group: r.classList.contains('group'), selected: r.classList.contains('selected'),
      seq: part('.seq'), clock: part('.clock'), origin: part('.origin'), action: part('.action'),
      crumbs: part('.crumbs'), count: part('.count'), title: r.title };
  }))()"""

READ_BADGES = """[...document.querySelectorAll('#step-badges .badge')].map(b => b.textContent)"""

# Whether the first `count` characters of step `seq`'s action are inside the list's box: the
# leaf's name is readable, not cut off.
LEAF_VISIBLE = """((seq, count) => {
  const row = [...document.querySelectorAll('#list .row.step')]
    .find(r => r.querySelector('.seq').textContent === seq);
  if (!row) { return null; }
  const text = row.querySelector('.action').firstChild;
  const range = document.createRange();
  range.setStart(text, 0);
  range.setEnd(text, Math.min(count, text.length));
  const box = range.getBoundingClientRect();
  const list = document.getElementById('list').getBoundingClientRect();
  const action = row.querySelector('.action').getBoundingClientRect();
  return box.width > 0 && box.right <= Math.min(list.right, action.right) + 0.5;
})"""

READ_DIVERGENCE = """(() => { const d = document.getElementById('divergence'); return {
  hidden: d.hidden,
  effects: [...d.querySelectorAll('ul.effects li')].map(li => [li.className, li.textContent]),
  fields: [...d.querySelectorAll('.field-diff > div')].map(e => [e.className, e.textContent]),
}; })()"""


def wait_for_event(browser, event, action):
    """Runs `action` (a script) and waits until the window fires `event` once more."""
    browser.evaluate(
        "new Promise(r => { addEventListener(%s, () => setTimeout(r, 0), {once: true}); %s; })"
        % (json.dumps(event), action))


def click_row(browser, seq=None, selector=None):
    """Clicks, with the mouse, the row of step `seq` (`#3`) or the first row `selector` finds."""
    find = ("[...document.querySelectorAll('#list .row.step')].find("
            "r => r.querySelector('.seq').textContent === %s)" % json.dumps(seq)
            if seq else "document.querySelector(%s)" % json.dumps(selector))
    point = browser.evaluate(
        "(() => { const r = (%s).getBoundingClientRect();"
        " return [r.left + Math.min(40, r.width / 2), r.top + r.height / 2]; })()" % find)
    browser.mouse("mouseMoved", point[0], point[1])
    browser.mouse("mousePressed", point[0], point[1], 1)
    browser.mouse("mouseReleased", point[0], point[1])


def click(browser, selector):
    """Scrolls the first element `selector` finds into view and clicks it with the mouse."""
    browser.evaluate("document.querySelector(%s).scrollIntoView({ block: 'nearest' })"
                     % json.dumps(selector))
    click_row(browser, selector=selector)


# The Action tab: which tab is chosen, which panel shows, the tree's lines in order (a folded
# section's summary only) and the raw JSON.
READ_TABS = """(() => {
  const tab = name => document.getElementById('tab-' + name);
  const panel = name => document.getElementById('panel-' + name);
  const tree = document.getElementById('action-tree');
  const lines = [];
  const walk = node => {
    for (const child of node.children) {
      if (child.tagName === 'DETAILS') {
        lines.push(child.querySelector(':scope > summary').textContent);
        if (child.open) {
          walk(child.querySelector(':scope > .children'));
          lines.push(child.querySelector(':scope > .close').textContent);
        }
      } else if (child.classList.contains('leaf') || child.classList.contains('same')) {
        lines.push(child.textContent);
      } else { walk(child); }
    }
  };
  walk(tree);
  return {
    selected: ['state', 'action'].filter(n => tab(n).getAttribute('aria-selected') === 'true'),
    shown: ['state', 'action'].filter(n => !panel(n).hidden && panel(n).offsetHeight > 0),
    tree: lines,
    raw: document.getElementById('action-json').textContent,
    step: timeline.selected()
  };
})()"""

# What Play shows: whether it plays, its button, and the timers the test's clock holds.
READ_PLAY = """(() => ({
  playing: timeline.playing(),
  bodyPlaying: document.body.dataset.playing,
  button: document.getElementById('play').textContent,
  pressed: document.getElementById('play').getAttribute('aria-pressed'),
  pending: (window.testTimers || []).filter(t => !t.done).map(t => t.ms),
  step: timeline.selected()
}))()"""

# A clock the test runs by hand: Play's timers wait in `testTimers` until `fireTimer()`.
MANUAL_CLOCK = """(() => {
  window.testTimers = [];
  timeline.useClock({
    after: (ms, action) => { testTimers.push({ ms: ms, action: action, done: false });
      return testTimers.length; },
    cancel: id => { testTimers[id - 1].done = true; }
  });
  window.fireTimer = () => {
    const timer = testTimers.find(t => !t.done);
    if (!timer) { return false; }
    timer.done = true;
    timer.action();
    return true;
  };
})()"""


def choose_speed(browser, value):
    browser.evaluate("(() => { const s = document.getElementById('speed'); s.value = %s;"
                     " s.dispatchEvent(new Event('change')); })()" % json.dumps(value))


def check_action_and_play(browser):
    """The Action tab (tree and raw JSON, kept while moving) and Play on a manual clock:
    it walks the steps, stops at the end, and stops for Space, a key or the slider."""
    seen = {}
    browser.evaluate("timeline.select(5)")
    browser.evaluate("document.activeElement && document.activeElement.blur()")
    seen["tabsAtFirst"] = browser.evaluate(READ_TABS)
    click(browser, "#tab-action")
    seen["actionTab"] = browser.evaluate(READ_TABS)
    browser.evaluate("document.activeElement.blur()")
    browser.key("ArrowDown", keycode=40)
    seen["actionTabAfterDown"] = browser.evaluate(READ_TABS)
    # Folding a section of the action's tree; the next step's tree keeps it folded.
    click(browser, "#action-tree details details > summary")
    seen["actionFolded"] = browser.evaluate(READ_TABS)
    browser.evaluate("document.activeElement.blur()")
    browser.key("ArrowUp", keycode=38)
    seen["actionFoldedAfterUp"] = browser.evaluate(READ_TABS)
    click(browser, "#action-tree details details > summary")
    click(browser, "#tab-state")
    seen["stateTabAgain"] = browser.evaluate(READ_TABS)

    browser.evaluate(MANUAL_CLOCK)
    browser.evaluate("document.activeElement.blur()")
    browser.key("Home", keycode=36)
    choose_speed(browser, "4")
    click(browser, "#play")
    seen["playing"] = browser.evaluate(READ_PLAY)
    walk = []
    for _ in range(30):
        if not browser.evaluate("fireTimer()"):
            break
        walk.append(browser.evaluate(READ_PLAY))
    seen["walk"] = walk
    # From the end Play starts again at the first step; Space pauses and plays (not while a
    # button has the focus: there Space presses the button, once).
    click(browser, "#play")
    seen["replaying"] = browser.evaluate(READ_PLAY)
    browser.evaluate("fireTimer()")
    browser.evaluate("document.activeElement.blur()")
    browser.key(" ", code="Space", keycode=32, text=" ")
    seen["afterSpace"] = browser.evaluate(READ_PLAY)
    browser.key(" ", code="Space", keycode=32, text=" ")
    seen["afterSpaceAgain"] = browser.evaluate(READ_PLAY)
    browser.evaluate("document.getElementById('play').focus()")
    browser.key(" ", code="Space", keycode=32, text=" ")
    seen["afterSpaceOnButton"] = browser.evaluate(READ_PLAY)
    # A new speed takes over at once.
    browser.evaluate("document.activeElement.blur()")
    browser.key(" ", code="Space", keycode=32, text=" ")
    choose_speed(browser, "16")
    seen["fasterWhilePlaying"] = browser.evaluate(READ_PLAY)
    # The slider and the keys stop it.
    x0, y = slider_point(browser, 0.3)
    x1, _ = slider_point(browser, 0.7)
    browser.drag(x0, y, x1, y)
    seen["afterSlider"] = dict(browser.evaluate(READ_PLAY), read=browser.evaluate(READ_STEP))
    browser.evaluate("document.activeElement.blur()")
    browser.key("Home", keycode=36)
    click(browser, "#play")
    browser.evaluate("fireTimer()")
    browser.evaluate("document.activeElement.blur()")
    browser.key("ArrowDown", keycode=40)
    seen["afterDown"] = browser.evaluate(READ_PLAY)
    return seen


def check_play_on_the_real_clock(arguments, browser):
    """Play with the window's own timers at the fastest speed: the positions it shows, in
    order, until it stops by itself (no time is measured)."""
    browser.open(arguments.session)
    browser.evaluate(
        "(() => { window.positions = []; new MutationObserver(() => positions.push("
        "document.getElementById('position').textContent)).observe("
        "document.getElementById('position'), { childList: true, characterData: true,"
        " subtree: true }); })()")
    choose_speed(browser, "16")
    click(browser, "#play")
    deadline = time.monotonic() + 30
    while browser.evaluate("timeline.playing()") and time.monotonic() < deadline:
        time.sleep(0.05)
    return dict(browser.evaluate(READ_PLAY), positions=browser.evaluate("positions"),
                exceptions=browser.exceptions())


def filter_with(browser, text, user=True, effect=True):
    """Types `text` into the filter with the origin boxes as given; returns the list."""
    browser.evaluate(
        "(() => { const f = document.getElementById('filter'); f.value = ''; f.focus();"
        " for (const [id, on] of [['origin-user', %s], ['origin-effect', %s]]) {"
        " const box = document.getElementById(id);"
        " if (box.checked !== on) { box.click(); } } })()"
        % (json.dumps(user), json.dumps(effect)))
    if text:
        browser.type_text(text)
    else:
        browser.evaluate("document.getElementById('filter').dispatchEvent(new Event('input'))")
    return dict(browser.evaluate(READ_LIST), steps=browser.evaluate(READ_ROWS))


def check_two_factor(arguments, browser):
    """Rows, groups, times, alerts, the filter and the address on a two-factor session, at
    800 px wide."""
    observations = {}
    browser.page("Emulation.setDeviceMetricsOverride",
                 {"width": 800, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    browser.open(arguments.two_factor)
    observations["help"] = browser.evaluate(
        "document.getElementById('filter-help').textContent")
    observations["rows"] = browser.evaluate(READ_ROWS)
    observations["leafVisible"] = {
        seq: browser.evaluate(LEAF_VISIBLE + "(%s, %d)" % (json.dumps(seq), count))
        for seq, count in arguments.leaf_visible}
    click_row(browser, selector="#list .row.group")
    observations["expandedRows"] = browser.evaluate(READ_ROWS)
    click_row(browser, selector="#list [data-group] .toggle")
    observations["collapsedRows"] = browser.evaluate(READ_ROWS)
    observations["steps"] = {}
    for index in arguments.two_factor_steps:
        browser.evaluate(f"timeline.select({index})")
        observations["steps"][str(index)] = dict(
            browser.evaluate(READ_STEP), badges=browser.evaluate(READ_BADGES),
            rows=[r for r in browser.evaluate(READ_ROWS) if r["selected"]])
    observations["filters"] = {}
    for name, text, user, effect in [
        ("words", "twofactor -resendtimer", True, True),
        ("state", "state:isverifying", True, True),
        ("path", "state:twofactor.code", True, True),
        ("userOnly", "", True, False),
        ("none", "", True, True),
    ]:
        observations["filters"][name] = filter_with(browser, text, user, effect)
    browser.evaluate("document.activeElement.blur()")

    # The address: an edited #step-N moves there; Back and Forward retrace the picks.
    browser.evaluate("timeline.select(0)")
    wait_for_event(browser, "hashchange", "location.hash = '#step-20'")
    observations["afterHash"] = browser.evaluate("timeline.selected()")
    browser.evaluate("(() => { const l = document.getElementById('list'); l.scrollTop = 0;"
                     " l.dispatchEvent(new Event('scroll')); })()")
    click_row(browser, seq="#3")
    observations["afterClick"] = browser.evaluate("timeline.selected()")
    wait_for_event(browser, "popstate", "history.back()")
    observations["afterBack"] = [browser.evaluate("timeline.selected()"),
                                 browser.evaluate("location.hash")]
    wait_for_event(browser, "popstate", "history.forward()")
    observations["afterForward"] = [browser.evaluate("timeline.selected()"),
                                    browser.evaluate("location.hash")]
    observations["twoFactorExceptions"] = browser.exceptions()
    browser.page("Emulation.clearDeviceMetricsOverride")
    return observations


def slider_point(browser, fraction):
    rect = browser.evaluate(
        "(() => { const r = document.getElementById('slider').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()")
    # Chromium's range thumb is inset by half its width (about 8 px) at each end.
    inset = 8
    x = rect[0] + inset + (rect[2] - 2 * inset) * fraction
    return x, rect[1] + rect[3] / 2


def check(arguments, browser):
    observations = {}
    browser.open(arguments.session)
    observations["page"] = browser.evaluate(READ_PAGE)
    observations["initial"] = browser.evaluate(READ_STEP)
    browser.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(5):
        browser.key("ArrowDown", keycode=40)
    observations["afterFiveDown"] = browser.evaluate(READ_STEP)
    browser.key("k", code="KeyK", keycode=75, text="k")
    observations["afterK"] = browser.evaluate(READ_STEP)
    browser.key("End", keycode=35)
    observations["afterEnd"] = browser.evaluate(READ_STEP)
    browser.key("Home", keycode=36)
    observations["afterHome"] = browser.evaluate(READ_STEP)
    observations["listAll"] = browser.evaluate(READ_LIST)
    observations["steps"] = {}
    for index in arguments.read_steps:
        browser.evaluate(f"timeline.select({index})")
        observations["steps"][str(index)] = browser.evaluate(READ_STEP)
    browser.evaluate("timeline.select(0)")

    browser.evaluate("document.getElementById('filter').focus()")
    browser.type_text(arguments.filter)
    observations["filtered"] = browser.evaluate(READ_LIST)
    browser.key("ArrowDown", keycode=40)
    observations["filteredDown"] = browser.evaluate(READ_STEP)
    browser.key("Escape", keycode=27)
    observations["unfiltered"] = browser.evaluate(READ_LIST)

    x0, y = slider_point(browser, 0.0)
    x1, _ = slider_point(browser, 0.5)
    browser.drag(x0, y, x1, y)
    observations["sliderHalf"] = browser.evaluate(READ_STEP)
    x2, _ = slider_point(browser, 1.0)
    browser.drag(x1, y, x2 + 20, y)
    observations["sliderEnd"] = browser.evaluate(READ_STEP)

    browser.evaluate("timeline.select(5)")
    png = browser.screenshot(arguments.screenshot)
    small = browser.screenshot(arguments.screenshot + ".small.png", scale=0.25)
    os.remove(arguments.screenshot + ".small.png")
    observations["screenshot"] = dict(blankness(small), bytes=len(png))
    observations["actionAndPlay"] = check_action_and_play(browser)
    observations["sessionExceptions"] = browser.exceptions()
    observations["realClockPlay"] = check_play_on_the_real_clock(arguments, browser)

    browser.open(arguments.divergent)
    observations["divergentPage"] = browser.evaluate(READ_PAGE)
    observations["divergentList"] = browser.evaluate(READ_LIST)
    observations["divergedRows"] = browser.evaluate(
        "[...document.querySelectorAll('#list .row.diverged')].map(r => [r.textContent,"
        " getComputedStyle(r).backgroundColor, getComputedStyle(r).color])")
    browser.evaluate("document.querySelector('#status button').click()")
    observations["divergentStep"] = browser.evaluate(READ_STEP)
    observations["divergentMarks"] = browser.evaluate(READ_DIVERGENCE)
    observations["divergencePanel"] = browser.evaluate(
        "(() => { const d = document.getElementById('divergence'); return { hidden: d.hidden,"
        " sides: [...d.querySelectorAll('.side')].map(s => s.innerText) }; })()")
    # A later step whose replay differs too: its row is marked, the panel shows the fields
    # and effects that differ, and the State tab the recorded state.
    browser.evaluate("timeline.select(4)")
    observations["laterDifference"] = browser.evaluate(READ_DIVERGENCE)
    observations["laterBadges"] = browser.evaluate(
        "[...document.querySelectorAll('#step-badges .badge')].map(b => b.textContent)")
    observations["laterState"] = browser.evaluate(
        "document.getElementById('state-tree').innerText")
    observations["rowMarks"] = browser.evaluate(
        "[...document.querySelectorAll('#list .row.step')].map(r => [r.querySelector('.seq').textContent,"
        " r.classList.contains('differs'), r.classList.contains('unchecked')])")
    observations["divergentExceptions"] = browser.exceptions()

    browser.open(arguments.hostile)
    observations["hostilePage"] = browser.evaluate(READ_PAGE)
    browser.evaluate("timeline.select(0)")
    observations["hostileStep"] = browser.evaluate(READ_STEP)
    observations["hostileDialogs"] = len(browser.dialogs())
    observations["hostileExceptions"] = browser.exceptions()

    if arguments.effects_divergent:
        browser.open(arguments.effects_divergent)
        browser.evaluate("document.querySelector('#status button').click()")
        observations["effectsDivergentMarks"] = browser.evaluate(READ_DIVERGENCE)
        # "none" under a side's Effects starts inside its column, not in the gap before it.
        observations["noneOffset"] = browser.evaluate(
            "(() => { const li = document.querySelector('#divergence ul.effects li.none');"
            " return li ? li.getBoundingClientRect().left"
            " - li.parentElement.parentElement.getBoundingClientRect().left : null; })()")
        observations["effectsDivergentExceptions"] = browser.exceptions()
    if arguments.long:
        browser.open(arguments.long)
        browser.evaluate("timeline.select(0)")
        read_leaf = ("(() => { const l = [...document.querySelectorAll('#state-tree .leaf')]"
                     ".find(e => e.textContent.startsWith('username:')); return l ? "
                     "{ text: l.firstChild.textContent, more: l.querySelector('.more') ? "
                     "l.querySelector('.more').textContent : null } : null; })()")
        observations["longLeaf"] = browser.evaluate(read_leaf)
        observations["longRow"] = [r for r in browser.evaluate(READ_ROWS) if r["seq"] == "#1"]
        browser.evaluate("[...document.querySelectorAll('#state-tree .leaf .more')][0].click()")
        observations["longLeafOpened"] = browser.evaluate(read_leaf)
        observations["longExceptions"] = browser.exceptions()
    if arguments.folder:
        browser.open(arguments.folder)
        observations["folderPage"] = browser.evaluate(READ_PAGE)
        # Each mark: the 0-based step it stands before, and its text.
        observations["folderMarks"] = browser.evaluate(
            "[...document.querySelectorAll('#list .row.gap.launch')]"
            ".sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map(r => {"
            " const next = [...document.querySelectorAll('#list .row.step')].find("
            "s => parseFloat(s.style.top) > parseFloat(r.style.top));"
            " return [next ? Number(next.dataset.index) : -1, r.textContent]; })")
        second = observations["folderMarks"][-1][0] if observations["folderMarks"] else 0
        browser.evaluate(f"timeline.select({second})")
        observations["folderAfterLaunch"] = dict(
            browser.evaluate(READ_STEP), badges=browser.evaluate(READ_BADGES),
            actionJSON=browser.evaluate("document.getElementById('action-json').textContent"))
        observations["folderExceptions"] = browser.exceptions()
    if arguments.two_factor:
        observations["twoFactor"] = check_two_factor(arguments, browser)
    # Last, as it leaves the window narrow: at 800 pixels a row shows 40 characters of its
    # action, not 25.
    browser.page("Emulation.setDeviceMetricsOverride",
                 {"width": 800, "height": 860, "deviceScaleFactor": 1, "mobile": False})
    browser.open(arguments.divergent)
    observations["narrowRowShows40"] = browser.evaluate(LEAF_VISIBLE + '("#6", 40)')
    return observations


def screenshot(arguments, browser):
    browser.open(arguments.page)
    if arguments.filter:
        browser.evaluate("document.getElementById('filter').focus()")
        browser.type_text(arguments.filter)
        browser.evaluate("document.activeElement.blur()")
    browser.evaluate(f"timeline.select({arguments.step - 1})")
    browser.next_frames()
    data = browser.screenshot(arguments.out)
    return {"path": arguments.out, "bytes": len(data)}


def bench(arguments, browser):
    started = time.monotonic()
    browser.open(arguments.page)
    wall = time.monotonic() - started
    first = browser.evaluate("timeline.firstShownMs")
    count = browser.evaluate("timeline.count")
    generator = random.Random(7)
    targets = [generator.randrange(count) for _ in range(arguments.moves)]
    moves = browser.evaluate(
        "(() => { const times = []; for (const i of %s) { const t = performance.now();"
        " timeline.select(i); document.body.getBoundingClientRect();"
        " document.getElementById('state-tree').offsetHeight;"
        " times.push(performance.now() - t); } return times; })()" % json.dumps(targets))
    keys = []
    for _ in range(20):
        t = time.monotonic()
        browser.key("ArrowDown", keycode=40)
        browser.evaluate("document.body.offsetHeight")
        keys.append((time.monotonic() - t) * 1000)
    filtering = browser.evaluate(
        "(() => { const f = document.getElementById('filter'); const times = [];"
        " for (const text of ['password', 'logout', '']) { const t = performance.now();"
        " f.value = text; f.dispatchEvent(new Event('input'));"
        " document.body.getBoundingClientRect(); times.push(performance.now() - t); }"
        " return times; })()")
    moves.sort()
    keys.sort()
    return {
        "steps": count, "pageBytes": os.path.getsize(arguments.page),
        "firstStepShownMs": round(first, 1), "openWallMs": round(wall * 1000, 1),
        "moveMedianMs": round(moves[len(moves) // 2], 2), "moveMaxMs": round(moves[-1], 2),
        "keyRoundTripMedianMs": round(keys[len(keys) // 2], 2),
        "keyRoundTripMaxMs": round(keys[-1], 2), "moves": len(moves),
        "filterMs": [round(t, 1) for t in filtering],
    }


def lines(arguments, browser):
    """The State tab's lines of every step, read in a shuffled order (so that states are rebuilt
    from checkpoints, gaps and the steps before them alike), and what the filter matches."""
    browser.open(arguments.page)
    count = browser.evaluate("timeline.count")
    order = list(range(-1, count))
    random.Random(11).shuffle(order)
    read = browser.evaluate(
        "(() => { const seen = {}; for (const i of %s) { seen[i] = timeline.stateLines(i); }"
        " return seen; })()" % json.dumps(order))
    changed = browser.evaluate(
        "(() => { const seen = []; for (let i = 0; i < timeline.count; i++) {"
        " seen.push(timeline.changedTexts(i)); } return seen; })()")
    return {"initial": read["-1"], "steps": [read[str(i)] for i in range(count)],
            "changed": changed}


def live(arguments, browser):
    """The page `replay --serve` serves, open while the log grows: a filter is typed and a step
    picked, then each line of --append is written to the log, and the page must show its step
    with the filter and the step kept. Reports how long each took to show, from the write."""
    browser.events = []
    browser.page("Page.navigate", {"url": arguments.url})
    base = arguments.url.split("#")[0]

    def ready():
        try:
            return browser.evaluate(
                "document.readyState === 'complete' && document.body && "
                "document.body.dataset.ready === 'true' && "
                f"location.href.split('#')[0] === {json.dumps(base)} && timeline.count")
        except DriverError:
            return None  # reloading: no page to ask

    deadline = time.monotonic() + browser.timeout
    while not ready():
        if time.monotonic() > deadline:
            raise DriverError(f"the served page did not get ready: {browser.exceptions()[:1]}")
        time.sleep(0.02)
    before = browser.evaluate("timeline.count")
    browser.evaluate("document.getElementById('filter').focus()")
    browser.type_text(arguments.filter)
    browser.evaluate("timeline.select(1)")
    shown = []
    with open(arguments.append, encoding="utf-8") as handle:
        appended = [line for line in handle.read().splitlines(keepends=True) if line.strip()]
    for line in appended:
        expected = browser.evaluate("timeline.count") + 1
        time.sleep(0.3)  # the page's question is waiting at the server
        with open(arguments.log, "a", encoding="utf-8") as log:
            log.write(line)
        written = time.monotonic()
        while (ready() or 0) < expected:
            if time.monotonic() - written > 10:
                raise DriverError(f"step {expected} did not show within 10 s")
            time.sleep(0.005)
        shown.append(round((time.monotonic() - written) * 1000))
    return {"before": before, "after": browser.evaluate("timeline.count"),
            "filter": browser.evaluate("document.getElementById('filter').value"),
            "selected": browser.evaluate("timeline.selected()"),
            "listInfo": browser.evaluate("document.getElementById('list-info').textContent"),
            "shownMs": shown, "exceptions": browser.exceptions()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=90, help="seconds for the whole run")
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check")
    checking.add_argument("--session", required=True)
    checking.add_argument("--divergent", required=True)
    checking.add_argument("--hostile", required=True)
    checking.add_argument("--screenshot", required=True)
    checking.add_argument("--filter", default="password")
    checking.add_argument("--read-steps", type=lambda text: [int(i) for i in text.split(",")],
                          default=[], help="0-based steps to read besides the keyboard's")
    checking.add_argument("--effects-divergent", help="a page whose divergence is in effects")
    checking.add_argument("--two-factor", help="a page of a two-factor session")
    checking.add_argument("--long", help="a page whose first step types a long username")
    checking.add_argument("--folder", help="the page of a flight recorder's folder")
    checking.add_argument("--two-factor-steps",
                          type=lambda text: [int(i) for i in text.split(",")], default=[],
                          help="0-based steps of the two-factor page to read")
    checking.add_argument("--leaf-visible", default=[],
                          type=lambda text: [(f"#{p.split(':')[0]}", int(p.split(':')[1]))
                                             for p in text.split(",")],
                          help="SEQ:CHARS,...: rows whose action's first CHARS must show")
    shooting = commands.add_parser("screenshot")
    shooting.add_argument("page")
    shooting.add_argument("out")
    shooting.add_argument("--step", type=int, default=1)
    shooting.add_argument("--filter")
    shooting.add_argument("--width", type=int, default=1280)
    shooting.add_argument("--height", type=int, default=860)
    reading = commands.add_parser("lines")
    reading.add_argument("page")
    benching = commands.add_parser("bench")
    benching.add_argument("page")
    benching.add_argument("--moves", type=int, default=200)
    following = commands.add_parser("live")
    following.add_argument("url")
    following.add_argument("--log", required=True)
    following.add_argument("--append", required=True, help="a file of the lines to write")
    following.add_argument("--filter", default="username")
    arguments = parser.parse_args()

    executable = find_browser()
    if not executable:
        print("timeline_browser: no browser found: install Chromium (apt-get install chromium)"
              " or set CHROMIUM to its path", file=sys.stderr)
        return NO_BROWSER

    def expire(signum, frame):
        raise DriverError(f"the browser check took longer than {arguments.timeout:g} s")

    def terminate(signum, frame):
        raise DriverError("terminated")

    signal.signal(signal.SIGALRM, expire)
    signal.signal(signal.SIGTERM, terminate)
    signal.alarm(int(arguments.timeout))
    browser = None
    try:
        size = (getattr(arguments, "width", 1280), getattr(arguments, "height", 860))
        browser = Browser(executable, timeout=min(30, arguments.timeout), width=size[0],
                          height=size[1])
        run = {"check": check, "screenshot": screenshot, "bench": bench,
               "lines": lines, "live": live}[arguments.command]
        result = run(arguments, browser)
        result["browser"] = os.path.basename(executable)
        print(json.dumps(result, ensure_ascii=False, indent=1))
        return 0
    except (DriverError, OSError) as error:
        print(f"timeline_browser: {error}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        if browser:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
