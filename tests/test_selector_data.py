"""The "Can I run it?" page's slim data (render/selector_data.py) holds what the data API says, cut only where the page
never reads: every cell in its target's file, every record it links, and none of the fields it drops read by its script."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generators.derive.route_computes import precision_said
from generators.derive.wording import WORDS, setting_said
from generators.render.api import api_files
from generators.render.selector_data import ATTEMPT_FIELDS, DROPPED, NAMED_ONLY, ROOT, UNUSED_KINDS, page_cell, selector_files

SCRIPT = Path(__file__).resolve().parent.parent / "docs/javascripts/can-i-run-it.js"


@pytest.fixture(scope="module")
def both(real_check) -> tuple[dict[str, str], dict[str, str]]:
    api = api_files(real_check[0])
    return api, selector_files(api)


def test_every_cell_is_in_its_targets_file_as_the_api_has_it_less_what_the_page_never_reads(both) -> None:
    api, page = both
    cells = json.loads(api["api/cells.json"])["cells"]
    targets = [t["id"] for t in json.loads(api["api/index.json"])["records"]["hardware-target"]]
    files = {p.removeprefix(f"{ROOT}/targets/").removesuffix(".json"): json.loads(t)
             for p, t in page.items() if p.startswith(f"{ROOT}/targets/")}
    assert sorted(files) == sorted(targets) == json.loads(page[f"{ROOT}/index.json"])["targets"]
    held = {(c["scheme"], c["target"]): c for doc in files.values() for c in doc["cells"]}
    assert len(held) == sum(len(doc["cells"]) for doc in files.values()) == len(cells)
    for cell in cells:
        slim = dict(held[(cell["scheme"], cell["target"])])
        slim.pop("notices", None)  # the page's own (test_the_notices_are_the_rule_explain_prints)
        assert slim == page_cell(cell)
        # a precision step carries its wording, explain's (derive/route_computes.precision_said), and where a setting
        # chooses it, which value it is for (derive/wording.setting_said); nothing else is added
        steps = slim.pop("computes_steps", [])
        assert [s.get("said") for s in steps] == [precision_said(s["precision"]) if s.get("precision") else None
                                                  for s in cell.get("computes_steps", [])]
        assert [s.get("setting_said") for s in steps] == [
            setting_said(t["name"], t["value"], t["default"], t["stored_in"] or "", t["default_when"] or "")
            if s.get("precision") and (t := s.get("setting")) else None for s in cell.get("computes_steps", [])]
        assert [{k: v for k, v in s.items() if k not in ("said", "setting_said")} for s in steps] == cell.get("computes_steps", [])
        assert {k: v for k, v in slim.items() if k != "attempts"} == {k: v for k, v in cell.items()
                                                                      if k not in DROPPED and k not in ("attempts",
                                                                                                        "computes_steps")}
        assert slim["attempts"] == [{k: a[k] for k in ATTEMPT_FIELDS} for a in cell["attempts"]]


def test_the_index_holds_every_record_the_page_links(both) -> None:
    api, page = both
    full = json.loads(api["api/index.json"])["records"]
    index = json.loads(page[f"{ROOT}/index.json"])
    records = index["records"]
    assert set(records) == set(full) - set(UNUSED_KINDS)
    for kind, entries in records.items():
        expected = [{k: v for k, v in e.items() if k != "file"} for e in full[kind]]
        if kind in NAMED_ONLY:
            ids = {e["id"] for e in entries}
            expected = [e for e in expected if e["id"] in ids]
        if kind == "term":  # a term keeps the quoted stretches some cell's text holds (the card links only there)
            cell_texts = page_texts(page)
            assert all(q in cell_texts for e in entries for q in e.get("quoted", []))
            kept = {e["id"]: e.get("quoted") for e in entries}
            assert any(len(e.get("quoted", [])) > len(kept[e["id"]] or []) for e in expected), "nothing left out"
            assert all(set(kept[e["id"]] or []) <= set(e.get("quoted", [])) for e in expected)
            expected = [{**e, "quoted": kept[e["id"]]} if "quoted" in e else e for e in expected]
        assert entries == expected, kind
    # what the page links by id, read field by field from the API (the slim copy keeps it by any mention)
    cells = json.loads(api["api/cells.json"])["cells"]
    wanted: dict[str, set[str]] = {"source": set(), "finding": set(), "observation": set()}
    for cell in cells:
        wanted["source"].update(cell["sources"], (n["source"] for n in cell["needs"]),
                                (s for g in cell["sources_passed_over"] for s in g["sources"]),
                                (n["source"] for p in cell["on_parts"] for n in p["needs"]))
        wanted["finding"].update(p["finding"] for p in cell["published"] if p.get("finding"))
        wanted["observation"].update(cell["evidence"])
    for kernel in full["kernel"]:
        wanted["source"].update(w["source"] for w in kernel.get("without_matrix_instruction", []) if w.get("source"))
    for engine in full["engine"]:
        wanted["finding"].update(later["finding"] for later in engine["later_releases"])
    for kind, ids in wanted.items():
        assert ids and ids <= {e["id"] for e in records[kind]}, kind
    # the format map's ratings reach the page as the cells' notices; the sentences the card says as explain does, once
    assert sorted(index) == ["records", "targets", "words"] and index["words"] == WORDS


def test_the_notices_are_the_rule_explain_prints(real_check, both) -> None:
    """A cell's notices for its whole target are what derive/emulated_here gives the answer (the lines `explain`
    prints), and for a part alone what it gives on that part; the script holds no copy of the rule."""
    from generators.derive.emulated_here import emulated_here, unknown_here
    from generators.derive.members import members
    atlas = real_check[0]
    _, page = both
    tallies = atlas.views.tallies
    emulated = {p: tuple(tallies[p].emulated) for p in tallies}
    rated = {p: tuple(tallies[p].native) + tuple(tallies[p].emulated) for p in tallies}
    kernels = {r.id: r.data for r in atlas.index.all("kernel")}
    said = {"target": 0, "parts": 0, "ways": 0}
    for path, text in page.items():
        if not path.startswith(f"{ROOT}/targets/"):
            continue
        for cell in json.loads(text)["cells"]:
            answer = atlas.views.answers[(cell["scheme"], cell["target"])]
            parts = members(atlas.index, atlas.index.must("hardware-target", cell["target"]))
            notices = cell.get("notices", {})
            for place, on in [("target", parts), *((p, (p,)) for p in parts)]:
                expected: dict[str, list[dict]] = {}
                if found := emulated_here(answer, on, emulated, kernels):
                    expected["emulated"] = [e.as_dict() for e in found]
                if unknown := unknown_here(answer, on, rated):
                    expected["unknown"] = [{"format": f, "parts": list(where)} for f, where in unknown]
                served = notices.get("target", {}) if place == "target" else notices.get("parts", {}).get(place, {})
                assert served == expected, (cell["scheme"], cell["target"], place)
                said["target" if place == "target" else "parts"] += bool(served)
                said["ways"] += any(e["ways"] for e in served.get("emulated", []))
    assert said["target"] and said["parts"] and said["ways"], said
    script = SCRIPT.read_text(encoding="utf-8")
    assert "without_matrix_instruction" not in re.sub(r"//.*", "", script)
    assert not re.search(r"index\.(emulated|rated)\b", script)


def test_the_page_reads_no_field_its_data_drops() -> None:
    script = SCRIPT.read_text(encoding="utf-8").replace("window.history", "")
    dropped = [*DROPPED, *(f for f in ("after_selection", "limits", "outcome", "routes") if f not in ATTEMPT_FIELDS)]
    assert [f for f in dropped if re.search(rf"[.\"']{f}\b", script)] == []
    assert "api/cells.json" not in re.sub(r"//.*", "", script)  # it reads the slim copy, not the whole API


def test_every_file_is_named_by_a_record_id_the_loader_accepted(both) -> None:
    """A target's id names its file: ids are checked where records are loaded (load.ID_PATTERN), so none holds a '/',
    a '..' or a character a URL or a file system would read otherwise, and the script fetches only the ids the index
    lists, through encodeURIComponent."""
    from generators.load import ID_PATTERN
    _, page = both
    assert all(p == f"{ROOT}/index.json" or (p.startswith(f"{ROOT}/targets/") and p.endswith(".json")
                                             and ID_PATTERN.fullmatch(p.removeprefix(f"{ROOT}/targets/").removesuffix(".json")))
               for p in page), sorted(page)
    script = SCRIPT.read_text(encoding="utf-8")
    assert '"targets/" + encodeURIComponent(targetId) + ".json"' in script
    assert "index.targets.indexOf(targetId) < 0" in script


def test_the_script_places_the_words_explain_says_and_holds_none_of_them(both) -> None:
    """The sentences the card and explain both say are served once (derive/wording.WORDS, and a way's words as its
    `said`, wording.way_said); the script keeps no copy of any of them, and inserts them as text (fill, fillText)."""
    _, page = both
    assert json.loads(page[f"{ROOT}/index.json"])["words"] == WORDS
    code = re.sub(r"//.*", "", SCRIPT.read_text(encoding="utf-8"))

    def texts(value: object) -> list[str]:
        return [t for v in value.values() for t in texts(v)] if isinstance(value, dict) else [str(value)]

    pieces = [piece for text in texts(WORDS) for piece in re.split(r"\{[^}]*\}", text) if len(piece.strip()) > 12]
    assert pieces and [piece for piece in pieces if piece in code] == []
    assert not re.search(r"multipl(y|ies) it|rescales? it|converts? it", code)
    assert "innerHTML" not in code and "insertAdjacentHTML" not in code


def test_the_script_checks_at_load_that_its_index_holds_every_word_it_places() -> None:
    """The words the script reads (WORDS.<key>) are the ones it checks the page's index for when it loads (WORDS_PLACED:
    an index.json older than the script, from a cache, is said not to load rather than drawn blank or with "undefined"),
    and every word derive/wording.WORDS serves is placed."""
    code = re.sub(r"//.*", "", SCRIPT.read_text(encoding="utf-8"))
    placed = re.search(r"var WORDS_PLACED = \[([^\]]*)\]", code)
    assert placed
    assert sorted(json.loads("[" + placed.group(1) + "]")) == sorted(set(re.findall(r"\bWORDS\.([a-z_]+)", code))) \
        == sorted(WORDS)


def test_the_diff_compares_the_notices_the_page_serves(real_check, both) -> None:
    """`diff` lists a change to a card's notices per cell (cell_content.py), from the same rule on the answer: what it
    compares is what the page serves, for every cell (empty fields left out, as in every cell content)."""
    from generators.cell_content import cell_contents, plain
    contents = cell_contents(real_check[0])
    _, page = both
    served = {(c["scheme"], c["target"]): plain(c.get("notices", {})) for path, text in page.items()
              if path.startswith(f"{ROOT}/targets/") for c in json.loads(text)["cells"]}
    assert {key: content.get("notices", {}) for key, content in contents.items()} == served
    assert sum(bool(n) for n in served.values()) > 50  # the real records hold many (102 on 2026-12-05)


def page_texts(page: dict[str, str]) -> str:
    """Every string of the page's per-target cell files, spaces folded, one per line."""
    def strings(value: object) -> list[str]:
        if isinstance(value, str):
            return [" ".join(value.split())]
        if isinstance(value, dict):
            return [s for v in value.values() for s in strings(v)]
        if isinstance(value, list):
            return [s for v in value for s in strings(v)]
        return []
    return "\n".join(s for path, text in page.items() if "/targets/" in path for s in strings(json.loads(text)))
