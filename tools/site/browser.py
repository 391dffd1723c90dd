"""Pages of the site in headless Chromium (Debian's `chromium`), driven
over the DevTools protocol on a pipe (--remote-debugging-pipe: no port is
opened): each page is loaded from file://, and what the browser reports is
collected (uncaught script errors, console errors and warnings, files that
failed to load) with a screenshot. `search` types a query into the page's
search box and returns the results it shows."""
import base64
import fcntl
import json
import os
import pathlib
import select
import shutil
import subprocess
import tempfile
import time

LOAD_TIMEOUT = 60


class Chromium:
    """One headless Chromium; `with Chromium() as c: c.visit(path)`."""

    def __init__(self):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if exe is None:
            raise RuntimeError("Chromium is not installed: run `bash "
                               "tools/setup-system.sh` as root (Debian's "
                               "chromium)")
        self.profile = tempfile.mkdtemp(prefix="pycg-chromium-")
        args = [exe, "--headless", "--remote-debugging-pipe",
                f"--user-data-dir={self.profile}", "--disable-gpu",
                "--no-first-run", "--disable-extensions",
                "--window-size=1280,900", "about:blank"]
        if os.geteuid() == 0:   # Chromium's sandbox refuses to run as root
            args.insert(1, "--no-sandbox")
        # Chromium reads commands from its fd 3 and answers on its fd 4:
        # the pipe ends go there in the child, from fds above 10 so that
        # no dup2 overwrites the other end
        to_chrome, self._w = os.pipe()
        self._r, from_chrome = os.pipe()
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
                for fd in (to_chrome, from_chrome)]
        for fd in (to_chrome, from_chrome):
            os.close(fd)

        def place_pipe():
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)
        self.proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, close_fds=False,
            preexec_fn=place_pipe)
        for fd in high:
            os.close(fd)
        self._buf, self._id, self.events = b"", 0, []
        try:
            target = self.call("Target.createTarget", url="about:blank")
            self.session = self.call(
                "Target.attachToTarget", flatten=True,
                targetId=target["targetId"])["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                self.call(f"{domain}.enable", session=True)
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._w, self._r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read(self, timeout=LOAD_TIMEOUT):
        """The next message from Chromium (each ends with a NUL byte)."""
        end = time.monotonic() + timeout
        while b"\0" not in self._buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise RuntimeError(f"Chromium sent nothing in {timeout} s")
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, session=False, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, timeout=LOAD_TIMEOUT):
        end = time.monotonic() + timeout
        while not any(e.get("method") == method for e in self.events):
            left = end - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"Chromium sent no {method} in {timeout} s")
            self.events.append(self._read(left))

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", session=True,
                           expression=expression, awaitPromise=True,
                           returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def visit(self, path, screenshot=None, settle=0.5):
        """Loads the page; returns the problems Chromium reported, and
        writes a PNG screenshot if asked."""
        self.events = []
        self.call("Page.navigate", session=True,
                  url=pathlib.Path(path).resolve().as_uri())
        self.wait_for("Page.loadEventFired")
        time.sleep(settle)
        self.evaluate("1")   # collects the events sent meanwhile
        if screenshot:   # the whole page, up to 4000 pixels down
            size = self.call("Page.getLayoutMetrics",
                             session=True)["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": size["width"],
                    "height": min(size["height"], 4000), "scale": 1}
            shot = self.call("Page.captureScreenshot", session=True,
                             format="png", clip=clip,
                             captureBeyondViewport=True)
            pathlib.Path(screenshot).write_bytes(
                base64.b64decode(shot["data"]))
        return problems(self.events)

    def screenshot_at(self, selector, path, height=1600):
        """A PNG of the page from the element `selector` down (`height`
        pixels, the window's width): the part of a long page a reader
        jumps to (pycg.html#custom_gradient)."""
        box = self.evaluate(
            "(() => { const r = document.querySelector(%s)"
            ".getBoundingClientRect(); return [r.top + window.scrollY, "
            "document.documentElement.scrollWidth]; })()"
            % json.dumps(selector))
        shot = self.call("Page.captureScreenshot", session=True,
                         format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": max(0, box[0] - 20),
                               "width": box[1], "height": height,
                               "scale": 1})
        pathlib.Path(path).write_bytes(base64.b64decode(shot["data"]))

    def search(self, query, timeout=20):
        """Types `query` into the page's search box: [(title, href)] of
        the results it shows (the index loads on the first keystroke)."""
        self.evaluate(
            "(() => { const i = document.querySelector('#search-input, "
            ".pycg-search'); i.focus(); i.value = %s; i.dispatchEvent("
            "new Event('input')); })()" % json.dumps(query))
        end = time.monotonic() + timeout
        while True:
            hits = self.evaluate(
                "[...document.querySelectorAll('.pycg-search-hit')].map(a =>"
                " [a.querySelector('.pycg-search-title').textContent, "
                "a.href])")
            if hits or time.monotonic() > end:
                return hits
            time.sleep(0.2)


def problems(events):
    """What a page's events say went wrong, as lines of text."""
    out = []
    for e in events:
        method, p = e.get("method"), e.get("params", {})
        if method == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            text = d.get("exception", {}).get("description") or d["text"]
            out.append(f"uncaught error: {text.splitlines()[0]} "
                       f"({d.get('url', '')}:{d.get('lineNumber', '')})")
        elif method == "Runtime.consoleAPICalled" and p["type"] in (
                "error", "warning", "assert"):
            args = " ".join(str(a.get("value", a.get("description", "")))
                            for a in p["args"])
            out.append(f"console {p['type']}: {args}")
        elif method == "Log.entryAdded" and p["entry"]["level"] in (
                "error", "warning"):
            entry = p["entry"]
            out.append(f"{entry['source']} {entry['level']}: "
                       f"{entry['text']} {entry.get('url', '')}".strip())
    return out
