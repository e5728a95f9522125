"""Browser tests: the built site served on 127.0.0.1 and driven by the distribution's headless Chromium.

Nothing is downloaded: Selenium is pointed at /usr/bin/chromium and /usr/bin/chromedriver (Debian's
`chromium` and `chromium-driver` packages, installed by `.ci/run`). Without them the tests are skipped,
unless ATLAS_REQUIRE_BROWSER=1 (set by `.ci/run`), which turns the skip into a failure.
"""
from __future__ import annotations

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

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1440,900")
DESKTOP = (1440, 900)
PHONE = (390, 844)


def _unavailable() -> str:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    return f"{', '.join(missing)} missing (apt-get install chromium chromium-driver)" if missing else ""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served by http.server in a thread; yields its base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(built_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@dataclass
class Browser:
    """A thin wrapper over one Chromium session: load a page at a viewport size, read its logs."""

    driver: Any
    base: str

    def open(self, path: str, size: tuple[int, int] = DESKTOP) -> None:
        self.resize(size)
        self.driver.get(self.base + path)
        self.driver.execute_script("return document.fonts ? document.fonts.ready : true")

    def resize(self, size: tuple[int, int]) -> None:
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

    def screenshot(self, name: str) -> Path:
        path = Path(tempfile.gettempdir()) / f"atlas-{name}.png"
        self.driver.save_screenshot(str(path))
        return path


@pytest.fixture(scope="session")
def browser(site_url: str) -> Iterator[Browser]:
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
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(20)
    try:
        yield Browser(driver, site_url)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
