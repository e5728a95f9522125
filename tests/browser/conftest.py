"""Browser tests: the built site served on 127.0.0.1 and driven by the distribution's headless Chromium.

Nothing is downloaded: Selenium is pointed at /usr/bin/chromium and /usr/bin/chromedriver (Debian's
`chromium` and `chromium-driver` packages, installed by `.ci/run`). Without them the tests are skipped,
unless ATLAS_REQUIRE_BROWSER=1 (set by `.ci/run`), which turns the skip into a failure. ATLAS_SCREENSHOTS=1 saves
the windows some tests look at as atlas-*.png in the temporary folder, for a person to look at.
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from ..processes import keep, kept_environment, release

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--disable-ipc-flooding-protection", "--window-size=1440,900")
DESKTOP = (1440, 900)
PHONE = (390, 844)


def _unavailable() -> str:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    return f"{', '.join(missing)} missing (apt-get install chromium chromium-driver)" if missing else ""


SEARCH_INDEX = "/search/search_index.json"


class _SiteServer(http.server.ThreadingHTTPServer):
    """Serves the built site. Unless `full_search` is set, the search index is served with no documents: the theme's
    search worker would otherwise load and index the whole site (megabytes) on every page a test opens."""

    full_search = False
    empty_index = b""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    server: _SiteServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    status = 0

    def send_response(self, code: int, message: str | None = None) -> None:
        self.status = code
        super().send_response(code, message)

    def end_headers(self) -> None:
        """The search index is never kept (a page never sees the index another test was served), nor is a failure
        (every page that asks for a missing file fails to load it); the site's own files are the same all session,
        so the browser keeps them and the scripts it compiled instead of fetching and compiling them on every page."""
        kept = self.status == 200 and urlsplit(self.path).path != SEARCH_INDEX
        self.send_header("Cache-Control", "max-age=3600" if kept else "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        if urlsplit(self.path).path != SEARCH_INDEX or self.server.full_search:
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.server.empty_index)))
        self.end_headers()
        self.wfile.write(self.server.empty_index)


@pytest.fixture(scope="session")
def site_server(built_site: Path) -> Iterator[_SiteServer]:
    """The built site served by http.server in a thread."""
    server = _SiteServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(built_site)))
    index = json.loads((built_site / SEARCH_INDEX.lstrip("/")).read_text(encoding="utf-8"))
    server.empty_index = json.dumps({**index, "docs": []}).encode()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def site_url(site_server: _SiteServer) -> str:
    """The served site's base URL."""
    return f"http://127.0.0.1:{site_server.server_address[1]}/"


@dataclass
class Browser:
    """A thin wrapper over one Chromium session: load a page at a viewport size, read its logs."""

    driver: Any
    base: str
    server: _SiteServer | None = None

    @contextlib.contextmanager
    def full_search(self) -> Iterator[None]:
        """Serve the real search index for the pages opened inside the block."""
        assert self.server is not None
        self.server.full_search = True
        try:
            yield
        finally:
            self.server.full_search = False

    def open(self, path: str, size: tuple[int, int] = DESKTOP) -> None:
        self._emulate(size)
        self.driver.get(self.base + path)
        self.driver.execute_script("return document.fonts ? document.fonts.ready : true")

    def resize(self, size: tuple[int, int]) -> None:
        """Resize the open page, and wait until it reports the new width: the override reaches the page with its next
        frame, and on a loaded machine a layout read at once could still see the old one."""
        from selenium.webdriver.support.ui import WebDriverWait
        self._emulate(size)
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return window.innerWidth") == size[0])

    def _emulate(self, size: tuple[int, int]) -> None:
        width, height = size
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def console_errors(self) -> list[str]:
        """Console messages at SEVERE level since the last call (uncaught errors, failed loads)."""
        return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def requested_hosts(self) -> set[str]:
        """Every host a network request went to since the last call (http, https, ws, wss)."""
        hosts = set()
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                url = urlsplit(message["params"]["request"]["url"])
                if url.scheme in ("http", "https", "ws", "wss"):
                    hosts.add(url.hostname or "")
        return hosts

    def screenshot(self, name: str) -> Path | None:
        """The window as a reader sees it, saved as atlas-NAME.png in the temporary folder for a person to look at, when
        ATLAS_SCREENSHOTS=1: no test reads it, and each took a quarter to half a second of the run."""
        if os.environ.get("ATLAS_SCREENSHOTS") != "1":
            return None
        path = Path(tempfile.gettempdir()) / f"atlas-{name}.png"
        self.driver.save_screenshot(str(path))
        return path


@pytest.fixture(scope="session")
def browser(site_server: _SiteServer, site_url: str) -> Iterator[Browser]:
    reason = _unavailable()
    if reason:
        if os.environ.get("ATLAS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests required but {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="atlas-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS + (f"--user-data-dir={profile}",):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    # ChromeDriver and the Chromium it starts run in a session of their own, marked, which the teardown ends whole:
    # Chromium's helper processes outlive the browser process by a moment after `quit` (its crash handlers, in sessions
    # of their own, longer), and would still be running as pytest exits.
    environment = kept_environment()
    service = Service(str(CHROMEDRIVER), env=environment, popen_kw={"start_new_session": True})
    try:
        driver = webdriver.Chrome(options=options, service=service)
    except BaseException:
        if getattr(service, "process", None) is not None:
            release(service.process)
        raise
    keep(service.process, environment)
    driver.set_page_load_timeout(20)
    try:
        yield Browser(driver, site_url, site_server)
    finally:
        try:
            driver.quit()
        finally:
            release(service.process)
            shutil.rmtree(profile, ignore_errors=True)
