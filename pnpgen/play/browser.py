"""A headless Chromium driven over the Chrome DevTools Protocol (a websocket), for the play
pages' tests, their benchmark and screenshots: the machine's own `chromium` (Debian's; none
is downloaded), a fresh profile per run, no network of its own beyond the pages it opens.

    with Browser(folder) as browser:
        browser.goto(url); browser.wait("document.body.dataset.version")
        browser.evaluate("document.title"); browser.screenshot(path)
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
         "--disable-component-update", "--disable-sync", "--remote-debugging-port=0", "--window-size=1280,900"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class BrowserError(Exception):
    pass


class Browser:
    """One Chromium process and one page (tab) in it."""

    def __init__(self, folder: Path, timeout: float = 30.0) -> None:
        from websockets.sync.client import connect

        binary = chromium()
        if binary is None:
            raise BrowserError("no chromium on PATH")
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        profile = Path(tempfile.mkdtemp(prefix="profile-", dir=folder))  # a new profile every time
        port_file = profile / "DevToolsActivePort"
        self.process = subprocess.Popen([binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)  # its own group: close() ends all of it
        deadline = time.monotonic() + timeout
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.close()
                raise BrowserError("chromium did not start")
            time.sleep(0.05)
        port, path = port_file.read_text().splitlines()[:2]
        self.connection = connect(f"ws://127.0.0.1:{port}{path}", max_size=None, open_timeout=timeout)
        self.socket = self.connection.__enter__()  # websockets 16+: a context manager
        self.timeout = timeout
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.page("Page.enable")
        self.page("Runtime.enable")

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        connection = getattr(self, "connection", None)
        if connection is not None:
            connection.__exit__(None, None, None)
        with contextlib.suppress(ProcessLookupError):  # Debian's chromium is a script: end what it started
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    # --- the protocol ----------------------------------------------------------------------
    def call(self, method: str, session: str | None = None, **params: object) -> dict[str, Any]:
        self.next_id += 1
        ident = self.next_id
        message: dict[str, object] = {"id": ident, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"{method}: no answer")
            reply = json.loads(self.socket.recv(timeout=left))
            if reply.get("id") == ident:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                result: dict[str, object] = reply.get("result", {})
                return result
            if "method" in reply:
                self.events.append(reply)

    def page(self, method: str, **params: object) -> dict[str, Any]:
        return self.call(method, self.session, **params)

    # --- what tests do ---------------------------------------------------------------------
    def evaluate(self, expression: str) -> Any:
        result = self.page("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:80]}: {result['exceptionDetails'].get('text')}: "
                               f"{result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait(self, expression: str, seconds: float = 20.0) -> object:
        """The value of `expression` once it is truthy (polled)."""
        deadline = time.monotonic() + seconds
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"waited {seconds} s for: {expression}")
            time.sleep(0.02)

    def goto(self, url: str) -> None:
        self.page("Page.navigate", url=url)
        self.wait(f"location.href === {json.dumps(url)} && document.readyState === 'complete'")

    def click(self, selector: str, text: str | None = None) -> None:
        """Click the element `selector` matches (with `text`: the one whose text is exactly that)."""
        found = self.evaluate(f"""(() => {{
            const all = [...document.querySelectorAll({json.dumps(selector)})];
            const el = {json.dumps(text)} === null ? all[0] : all.find(e => e.textContent === {json.dumps(text)});
            if (!el) return false; el.click(); return true; }})()""")
        if not found:
            raise BrowserError(f"nothing to click: {selector} {text or ''}")

    def upload(self, selector: str, path: Path) -> None:
        """Choose `path` in the file input `selector` (as a person picking the file)."""
        node = self.page("Runtime.evaluate", expression=f"document.querySelector({json.dumps(selector)})")
        self.page("DOM.setFileInputFiles", files=[str(path)], objectId=node["result"]["objectId"])

    def downloads_to(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(folder))

    def html(self) -> str:
        return str(self.evaluate("document.documentElement.outerHTML"))

    def screenshot(self, path: Path) -> None:
        height = min(4000, int(self.evaluate("document.documentElement.scrollHeight")))
        width = int(self.evaluate("window.innerWidth"))
        self.page("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        try:
            data = self.page("Page.captureScreenshot", format="png")["data"]
        finally:
            self.page("Emulation.clearDeviceMetricsOverride")
        path.write_bytes(base64.b64decode(data))

    def response_bodies(self) -> list[tuple[str, str]]:
        """(url, body) of every response the page received since Network.enable (streams too)."""
        self.page("Runtime.evaluate", expression="0")  # collect the events sent so far
        out = []
        for event in self.events:
            if event.get("method") == "Network.eventSourceMessageReceived":
                out.append(("event-stream", str(event["params"].get("data", ""))))
            if event.get("method") != "Network.responseReceived":
                continue
            params = event["params"]
            try:
                body = self.page("Network.getResponseBody", requestId=params["requestId"])
            except BrowserError:  # a stream still open: its chunks come as dataReceived events
                continue
            text = base64.b64decode(body["body"]).decode("utf-8", "replace") if body.get("base64Encoded") \
                else body["body"]
            out.append((params["response"]["url"], text))
        return out
