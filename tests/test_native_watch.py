"""Native file events for `mkdocs serve` and `build --watch`: changes wake a rebuild, reads do not, polling stays
where asked for (generators/native_watch.py)."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from mkdocs.livereload import LiveReloadServer
from watchdog.observers.polling import PollingObserver

from generators.native_watch import ChangeSignal, use_native_events
from generators.watch import watch

from .test_engines import small_project

WAIT = 5.0  # seconds a change may take to arrive on a loaded machine (native events usually take milliseconds)


def _server(tmp_path: Path) -> LiveReloadServer:
    return LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))


def _woken(server: LiveReloadServer, act, wait: float = WAIT) -> bool:
    """Whether `act` makes the running observer ask the server for a rebuild within `wait` seconds."""
    with server._rebuild_cond:
        server._want_rebuild = False
    act()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        with server._rebuild_cond:
            if server._want_rebuild:
                return True
        time.sleep(0.01)
    return False


@pytest.fixture
def served(tmp_path, monkeypatch):
    monkeypatch.delenv("ATLAS_WATCH", raising=False)
    records = tmp_path / "records"
    (records / "formats").mkdir(parents=True)
    (records / "formats" / "a.yaml").write_text("name: a\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\n", encoding="utf-8")
    server = _server(tmp_path)
    server.watch(str(records))
    server.watch(str(records))  # watched twice (counted): unwatching once must keep it
    server.watch(str(config))
    assert use_native_events(server) == "native file events"
    server.observer.start()
    yield server, tmp_path
    server.observer.stop()
    server.observer.join()


def test_serve_moves_every_watch_to_native_events_keeping_counts(served):
    server, root = served
    assert not isinstance(server.observer, PollingObserver)
    assert server.build_delay == 0.05  # events arrive within milliseconds: MkDocs's 0.1 s was sized for polling
    assert server._watched_paths == {str(root / "records"): 2, str(root / "mkdocs.yml"): 1}
    server.unwatch(str(root / "records"))
    assert str(root / "records") in server._watched_paths


def test_serve_rebuilds_on_writes_moves_and_folders_but_not_on_reads(served):
    server, root = served
    record = root / "records" / "formats" / "a.yaml"
    assert not _woken(server, lambda: record.read_bytes(), wait=0.3)  # a build reads every record: not a change
    assert _woken(server, lambda: record.write_text("name: b\n", encoding="utf-8"))
    replaced = root / "records" / "formats" / ".a.tmp"

    def atomic_save() -> None:
        replaced.write_text("name: c\n", encoding="utf-8")
        os.replace(replaced, record)

    assert _woken(server, atomic_save)
    elsewhere = root / "elsewhere"
    (elsewhere / "kinds").mkdir(parents=True)
    (elsewhere / "kinds" / "b.yaml").write_text("name: b\n", encoding="utf-8")
    assert _woken(server, lambda: os.rename(elsewhere / "kinds", root / "records" / "kinds"))  # a folder moved in
    assert _woken(server, lambda: (root / "mkdocs.yml").write_text("site_name: y\n", encoding="utf-8"))


def test_atlas_watch_poll_keeps_mkdocs_polling(tmp_path, monkeypatch):
    monkeypatch.setenv("ATLAS_WATCH", "poll")
    server = _server(tmp_path)
    server.watch(str(tmp_path))
    assert use_native_events(server) == "polling (ATLAS_WATCH=poll)"
    assert isinstance(server.observer, PollingObserver) and server.build_delay == 0.1


def test_a_server_without_mkdocs_watch_table_keeps_its_observer(tmp_path):
    class Other:
        observer = object()

    assert use_native_events(Other()).startswith("polling")


def test_change_signal_wakes_on_a_write_and_not_on_a_read(tmp_path, monkeypatch):
    monkeypatch.delenv("ATLAS_WATCH", raising=False)
    (tmp_path / "a.yaml").write_text("x: 1\n", encoding="utf-8")
    signal = ChangeSignal([str(tmp_path), str(tmp_path / "missing")])  # a missing folder is skipped, not an error
    try:
        assert signal.native
        (tmp_path / "a.yaml").read_text(encoding="utf-8")
        assert not signal.wait(0.2)
        (tmp_path / "a.yaml").write_text("x: 2\n", encoding="utf-8")
        assert signal.wait(WAIT)
    finally:
        signal.close()


@pytest.mark.parametrize("mode", ["native", "poll"])
def test_watch_rewrites_an_edited_page(tmp_path, monkeypatch, mode):
    if mode == "poll":
        monkeypatch.setenv("ATLAS_WATCH", "poll")
    else:
        monkeypatch.delenv("ATLAS_WATCH", raising=False)
    tree = small_project(tmp_path)
    out = tmp_path / "out"
    rounds: list[list[str]] = []
    said: list[str] = []
    first = threading.Event()

    def report(synced) -> None:
        rounds.append(synced.written)
        first.set()

    worker = threading.Thread(target=watch, args=(tree, out, report), daemon=True,
                              kwargs={"rounds": 1, "announce": said.append})
    worker.start()
    assert first.wait(60)
    record = tree / "records" / "formats" / "fmt-fp4.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("summary: ", "summary: Edited. ", 1), encoding="utf-8")
    worker.join(60)
    assert not worker.is_alive()
    assert said == (["watching with native file events"] if mode == "native" else ["polling every 0.1 s (ATLAS_WATCH=poll)"])
    assert "formats/fmt-fp4.md" in rounds[1]
    assert "Edited." in (out / "formats" / "fmt-fp4.md").read_text(encoding="utf-8")


def test_a_path_native_events_cannot_watch_keeps_polling(tmp_path, monkeypatch):
    monkeypatch.delenv("ATLAS_WATCH", raising=False)
    server = _server(tmp_path)
    server.watch(str(tmp_path))
    server.watch(str(tmp_path / "gone"))  # polling tolerates a missing path; the kernel refuses to watch it
    assert use_native_events(server).startswith("polling (native events unavailable")
    assert isinstance(server.observer, PollingObserver)
