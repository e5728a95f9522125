"""A trap's effect is shown in the Known traps chapter and listed in the API index, escaped for each channel."""
from __future__ import annotations

import json

import markdown

from generators.render import environment, names_of, render_page
from generators.render.api import dump, index_document
from tests.memory_atlas import ROOT, atlas_of

# Not a value the schema allows: the atlas is built without validation, to see each channel escape what it is given.
HOSTILE = "misleads <script>alert(1)</script> *x* | y"
TRAP = {"name": "A trap", "summary": "It misleads.", "severity": "minor", "effect": HOSTILE, "silent": False,
        "regime": "toolchain", "trigger": "A trigger.", "symptom": "A symptom.", "sources": []}
RECORDS = {"gotcha/a-trap": TRAP,
           "gotcha/b-trap": {**TRAP, "name": "B trap", "severity": "blocker", "effect": "stops"}}


def test_the_known_traps_chapter_shows_each_traps_effect_as_text():
    atlas = atlas_of(RECORDS)
    problems: list = []
    text = render_page(environment(ROOT / "docs"), atlas, "chapters/05-known-traps.md.j2", "chapters/05-known-traps.md",
                       names_of(atlas), {}, problems)
    assert problems == []
    assert "- **Effect:** stops\n" in text.split("## B trap", 1)[1]
    page = markdown.markdown(text)
    shown = page.split("<strong>Effect:</strong>", 1)[1].split("</li>", 1)[0]  # the blocker comes first
    assert shown.strip() == "stops"
    hostile = page.split("A trap</h2>", 1)[1].split("<strong>Effect:</strong>", 1)[1].split("</li>", 1)[0]
    assert hostile.strip() == "misleads &lt;script&gt;alert(1)&lt;/script&gt; *x* &#124; y"  # no tag, no emphasis


def test_the_api_index_lists_each_traps_effect():
    entries = {e["id"]: e for e in json.loads(dump(index_document(atlas_of(RECORDS))))["records"]["gotcha"]}
    assert {i: e["effect"] for i, e in entries.items()} == {"a-trap": HOSTILE, "b-trap": "stops"}
