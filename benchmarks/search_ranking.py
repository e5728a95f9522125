"""How many record names and ids, typed into the site search, do not list their record first (the theme's own worker).

Run by hand: python3 benchmarks/search_ranking.py [--site DIR] [--kinds search|all] [--show N] [QUERY...]

The built site (DIR, or one built into a temporary folder with `python -m generators site`) is served on 127.0.0.1;
headless Chromium (Debian's chromium and chromium-driver, as the browser tests use) opens its home page, starts the
theme's search worker from the page's own configuration, gives it the site's search index and then every query, one
at a time, as the search box does (the worker transforms the query itself). A query's answer is the order of the
pages in the result list. The queries, per record page of the formats, kernels and engines (--kinds all: every kind):
  names       its title without a trailing parenthetical, as a reader types the name
  full names  its whole title
  ids         the page's folder name (the record's id), as a reader pastes it
A name several records share counts as found when any of them comes first. With QUERY arguments, their first five
pages are printed instead. Printed per set: each miss (query, the page listed first, the record's place or '-' when
not listed) and the count; then how long the queries took (about a tenth of a second each: the worker scores every
section of the ~600 pages). tests/browser/test_pages.py asserts a few of these queries on every run.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generators.derive.search_terms import SEARCH_FIRST_KINDS  # noqa: E402
from generators.kinds import FOLDER_OF_KIND, KIND_OF_FOLDER  # noqa: E402

# Started on a page of the site: the worker named in the page's __config, the index fetched as the theme fetches it,
# then one QUERY message at a time (SETUP 0, READY 1, QUERY 2, RESULT 3: the theme's SearchMessageType).
START_WORKER = """const done = arguments[0];
const config = JSON.parse(document.getElementById('__config').textContent);
const base = new URL(config.base + '/', location.href);
const worker = window.atlasSearch = new Worker(new URL(config.search, base));
window.atlasNext = () => new Promise(resolve => worker.addEventListener('message', e => resolve(e.data), {once: true}));
fetch(new URL('search/search_index.json', base)).then(r => r.json()).then(index => {
  worker.postMessage({type: 0, data: {config: index.config, docs: index.docs, options: {suggest: false}}});
  return window.atlasNext();
}).then(() => done(''), error => done(String(error)));"""
ASK_WORKER = """const [queries, done] = arguments;
(async () => {
  const pages = [];
  for (const query of queries) {
    window.atlasSearch.postMessage({type: 2, data: query});
    const {data} = await window.atlasNext();
    pages.push(data.items.map(group => group[0].location.split('#')[0]));
  }
  return pages;
})().then(done, error => done(String(error)));"""
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")  # as derive/search_terms.py reads a name
CHUNK = 100  # queries per call: WebDriver's client gives a script two minutes


@dataclass(frozen=True)
class Query:
    """A query and the record pages it names (one, unless several records share a name)."""

    text: str
    pages: frozenset[str]


def record_pages(index: dict[str, Any], kinds: tuple[str, ...]) -> dict[str, str]:
    """Each record page of those kinds (its location, 'formats/nvfp4/') with its title, from the built search index."""
    folders = {FOLDER_OF_KIND[kind] for kind in kinds}
    titles: dict[str, str] = {}
    for doc in index["docs"]:
        parts = doc["location"].split("/")
        if "#" not in doc["location"] and len(parts) == 3 and parts[0] in folders and parts[2] == "":
            titles.setdefault(doc["location"], doc["title"])
    return titles


def name_and_id_queries(titles: dict[str, str]) -> dict[str, list[Query]]:
    """The query sets: 'names' (each page's title without a trailing parenthetical, as a reader types the name),
    'full names' (the whole title), 'ids' (the page's folder name); each query once."""
    def by(text_of: Callable[[str], str]) -> list[Query]:
        pages_of: dict[str, set[str]] = {}
        for page, title in titles.items():
            pages_of.setdefault(text_of(title), set()).add(page)
        return [Query(text, frozenset(pages)) for text, pages in sorted(pages_of.items())]
    return {"names": by(lambda title: _PARENTHETICAL.sub("", title)),
            "full names": by(lambda title: title),
            "ids": [Query(page.split("/")[1], frozenset({page})) for page in sorted(titles)]}


def rank(driver: Any, texts: list[str]) -> list[list[str]]:
    """Each query's result pages in order, from the theme's worker started on the page the driver has open."""
    driver.set_script_timeout(120)
    started = driver.execute_async_script(START_WORKER)
    if started:
        raise RuntimeError(f"search worker: {started}")
    found: list[list[str]] = []
    for start in range(0, len(texts), CHUNK):
        pages = driver.execute_async_script(ASK_WORKER, texts[start:start + CHUNK])
        if isinstance(pages, str):
            raise RuntimeError(f"search worker: {pages}")
        found += pages
    driver.execute_script("window.atlasSearch.terminate()")
    return found


def misses(queries: list[Query], results: list[list[str]]) -> list[tuple[str, str, str]]:
    """(query, page listed first, place of the named record or '-') for each query whose record is not first."""
    missed = []
    for query, pages in zip(queries, results):
        if not pages or pages[0] not in query.pages:
            place = next((str(n) for n, page in enumerate(pages, 1) if page in query.pages), "-")
            missed.append((query.text, pages[0] if pages else "(nothing)", place))
    return missed


@contextlib.contextmanager
def served(site: Path) -> Iterator[str]:
    """The site's base URL, served by http.server in a thread."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium session (Debian's binary and driver)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="atlas-search-")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    parser.add_argument("--kinds", choices=("search", "all"), default="search",
                        help="the formats, kernels and engines that carry search terms, or every record kind")
    parser.add_argument("--show", type=int, default=1000, help="misses to print per query set")
    parser.add_argument("query", nargs="*", help="print these queries' first five pages instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site or Path(scratch) / "site"
        if not args.site:
            subprocess.run([sys.executable, "-m", "generators", "site", "-d", str(site)], cwd=ROOT, check=True,
                           capture_output=True)
        index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
        kinds = tuple(KIND_OF_FOLDER.values()) if args.kinds == "all" else SEARCH_FIRST_KINDS
        sets = name_and_id_queries(record_pages(index, kinds))
        with served(site) as url, chromium() as driver:
            driver.get(url)
            if args.query:
                for text, pages in zip(args.query, rank(driver, args.query)):
                    print(f"{text!r}: {', '.join(pages[:5]) or '(nothing)'}")
                return
            texts = [q.text for queries in sets.values() for q in queries]
            began = time.monotonic()
            results = iter(rank(driver, texts))
            elapsed = time.monotonic() - began
    for label, queries in sets.items():
        missed = misses(queries, [next(results) for _ in queries])
        for text, first, place in missed[:args.show]:
            print(f"  {label[:-1]} {text!r}: first {first}, record at {place}")
        print(f"{label}: {len(missed)} of {len(queries)} miss")
    print(f"{len(texts)} queries in {elapsed:.1f} s")


if __name__ == "__main__":
    main()
