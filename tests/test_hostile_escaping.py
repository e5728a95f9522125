"""Every output channel escapes for its context (issue 11, class 2).

The PR comment is rendered with GitHub's own cmark fork (cmarkgfm) and inspected as HTML; the site
is built for real with MkDocs and the Material theme.
"""
from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from generators import gfm
from generators.diff import (CellChange, CellContentChange, CountChange, DiffReport, FieldChange, OtherwiseStep,
                             PageChange, RecordChange)
from generators.problems import Problem

from .conftest import write

cmarkgfm = pytest.importorskip("cmarkgfm")
from cmarkgfm.cmark import Options  # noqa: E402

HOSTILE = ("x`` <img src=https://e.example/x.png> ![i](https://e.example/i.png) [l](https://e.example) "
           "@octocat <script>alert(1)</script> www.e.example\n# heading\n| a | b")
OUR_TAGS = {"p", "strong", "code", "ul", "li", "h3", "blockquote", "table", "thead", "tbody", "tr", "th", "td",
            "details", "summary", "pre"}


class _Inspector(HTMLParser):
    """Collects every tag, and the text that is outside <code>/<pre>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.depth = 0
        self.outside: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.depth += tag in ("code", "pre")

    def handle_endtag(self, tag):
        self.depth -= tag in ("code", "pre")

    def handle_data(self, data):
        if self.depth == 0:
            self.outside.append(data)


def github_html(markdown: str) -> _Inspector:
    inspector = _Inspector()
    inspector.feed(cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE))
    return inspector


def hostile_report() -> DiffReport:
    return DiffReport(
        base=HOSTILE, head="working tree",
        records=(RecordChange("format", HOSTILE, "changed", (FieldChange(HOSTILE, HOSTILE, {HOSTILE: [HOSTILE]}),)),
                 RecordChange("format", "b", "renamed", renamed_from=HOSTILE),
                 RecordChange("scheme", HOSTILE + "\u202e", "renamed", renamed_from=HOSTILE)),
        cells=(CellChange(HOSTILE, HOSTILE, "yes", "no", HOSTILE, HOSTILE, (HOSTILE,), (),
                          (OtherwiseStep(HOSTILE, HOSTILE, HOSTILE),), (OtherwiseStep(HOSTILE, HOSTILE, "no"),)),
               CellChange("s", "t", "yes", "yes", "", "", (), (), (OtherwiseStep("a", "k", HOSTILE),),
                          (OtherwiseStep("b", "k", HOSTILE),)),
               # a new cell, said in full from its content; a removed one whose side's own code says an unknown verdict
               CellChange(HOSTILE, HOSTILE, "(absent)", "refused", "", HOSTILE, (), (HOSTILE,), (),
                          (OtherwiseStep(HOSTILE, HOSTILE, HOSTILE),),
                          content={"kernel": HOSTILE, "gate": HOSTILE, "computes_as": HOSTILE, "failure_message": HOSTILE,
                                   "reasons": [HOSTILE, HOSTILE + "\x1b[2J\u202e"], "computes_steps_said": [HOSTILE]}),
               CellChange(HOSTILE, HOSTILE, HOSTILE, "(absent)", HOSTILE, ""),
               # a cell of the renamed scheme: removed under the old id, added under the new one, said as one
               CellChange(HOSTILE, "t", "runs", "(absent)", HOSTILE, "", content={"gate": HOSTILE}),
               CellChange(HOSTILE + "\u202e", "t", "(absent)", "runs", "", HOSTILE, content={"gate": HOSTILE + "\x1b"})),
        counts=(CountChange(HOSTILE, "native formats", HOSTILE, 3),),
        contents=(CellContentChange(HOSTILE, HOSTILE, (FieldChange(HOSTILE, HOSTILE, {HOSTILE: [HOSTILE]}),
                                                       FieldChange("reasons[0]", None, HOSTILE))),),
        pages=(PageChange(HOSTILE, "changed", ("```", "</details>", HOSTILE.replace("\n", " "), "~~~~")),),
        introduced=(f"records/formats/{HOSTILE}.yaml:1:1: error: [load] {HOSTILE}",),
        fixed=(HOSTILE,),
    )


def test_diff_comment_shows_contributor_text_only_as_text():
    markdown = hostile_report().to_markdown()
    page = github_html(markdown)
    assert page.tags <= OUR_TAGS, page.tags - OUR_TAGS  # no img, a, script, h1 from the contributor
    outside = "".join(page.outside)
    assert "@octocat" not in outside and "e.example" not in outside and "heading" not in outside
    assert len([line for line in markdown.splitlines() if line.startswith("| ")]) == 3  # header + one row: no injected row
    assert "\x1b" not in markdown and "\u202e" not in markdown  # the terminal gets the same text: nothing it acts on
    new_cell = markdown.split("- new cell: ", 1)[1].split("\n- cell removed: ", 1)[0].splitlines()
    assert len(new_cell) == 11 and all(line.startswith("  ") for line in new_cell[1:])  # each text one line, under it
    moved = markdown.split("- renamed: ", 1)[1].split("\n- ", 1)[0].splitlines()  # the renamed scheme's cell
    assert len(moved) == 2 and moved[1].startswith("  - `gate`: ")
    assert markdown.count("- cell removed: ") == 1 and f": {gfm.code(HOSTILE)} ({gfm.code(HOSTILE)})" in markdown


def test_code_span_fence_is_longer_than_any_backtick_run():
    assert gfm.code("a``b") == "```a``b```"
    assert gfm.code("`x") == "`` `x ``"
    assert gfm.code("plain") == "`plain`"
    assert gfm.code("a\nb") == "`a\\nb`"
    assert gfm.code("a\x1b[2J\u202eb\u2028c") == "`a\\u001b[2J\\u202eb\\u2028c`"  # a terminal shows them, acts on none
    assert gfm.cell(gfm.code("a|b")) == "`a\\|b`"
    assert gfm.text("@octocat [l](u)") == "@\u200boctocat \\[l\\]\\(u\\)"
    assert gfm.html("<b>&") == "&lt;b&gt;&amp;"


def test_a_text_reworded_by_an_invisible_character_shows_two_different_texts():
    """A zero-width space, a joiner, a byte-order mark, a soft hyphen or a tag character (hidden ASCII) draws as
    nothing: a cell whose message gains one must not read as the same text before and after, in the PR comment, on a
    terminal or in the JSON (which keeps the value)."""
    for hidden in ("\u200b", "\u200d", "\u2060", "\ufeff", "\xad", "\u180e", "\U000e0041", "\U000e0100", "\u3164"):
        report = DiffReport(base="main", head="wt", contents=(
            CellContentChange("s", "t", (FieldChange("reasons[0]", "no kernel", f"no{hidden} kernel"),)),))
        line = report.to_markdown().splitlines()[-1]
        shown = [_code_text(part) for part in line.split(" → ")]
        assert shown[0] != shown[1] and hidden not in line, (hidden, line)
        assert "\\u" in shown[1] and all(c.isascii() and c.isprintable() for c in shown[1])
        text = report.to_json()
        assert hidden not in text and json.loads(text)["cell_contents"][0]["fields"][0]["new"] == f"no{hidden} kernel"


def _code_text(markdown: str) -> str:
    """The text GitHub draws for the last code span of a Markdown fragment."""
    html = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    return html.rsplit("<code>", 1)[1].split("</code>", 1)[0]


def test_every_format_character_is_written_as_an_escape():
    """Every character of Unicode category Cf (bidirectional controls, zero-width characters, tags) and every control
    but tab and newline: what the report prints is what a reader sees."""
    import sys
    import unicodedata
    hidden = [chr(c) for c in range(sys.maxunicode + 1)
              if unicodedata.category(chr(c)) in ("Cf", "Cc", "Zl", "Zp") and chr(c) not in "\t\n"]
    written = gfm.one_line("".join(hidden))
    assert all(c.isascii() and c.isprintable() for c in written), [c for c in written if not c.isascii()][:5]
    assert json.loads(gfm.visible_json(json.dumps("".join(hidden), ensure_ascii=False))) == "".join(hidden)


def test_diff_json_is_strict_and_round_trips():
    text = hostile_report().to_json()
    data = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    assert data["base"] == HOSTILE
    assert "\x1b" not in text and "\u202e" not in text
    new_cell = next(c for c in data["cells"] if c["status"] == "added")
    assert new_cell["content"]["reasons"] == [HOSTILE, HOSTILE + "\x1b[2J\u202e"]  # escaped, and read back as it was
    with pytest.raises(ValueError):
        DiffReport("a", "b", records=(RecordChange("format", "x", "changed", (FieldChange("v", 1, float("nan")),)),)).to_json()


def test_github_annotation_properties_cannot_be_injected():
    problem = Problem("records/a,line=99,title=x:y.yaml", 3, 4, "load", "50% done\r\nnext")
    assert problem.as_github() == ("::error file=records/a%2Cline=99%2Ctitle=x%3Ay.yaml,line=3,col=4,title=load"
                                   "::50%25 done%0D%0Anext")


MKDOCS_YML = """site_name: Mini
docs_dir: docs
theme:
  name: material
plugins:
  - search
  - atlas
"""


def test_record_name_with_script_is_text_in_title_toc_and_search(tree: Path, tmp_path: Path):
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    name = "</title><script>alert(1)</script> & <b>bold</b>"
    record = tree / "records/formats/fmt-fp4.yaml"
    record.write_text(record.read_text().replace("name: FP4 block format", f"name: {json.dumps(name)}"))
    write(tree, "mkdocs.yml", MKDOCS_YML)
    config = load_config(config_file=str(tree / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    build(config)
    html = (tmp_path / "site/formats/fmt-fp4/index.html").read_text()
    assert "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt; - Mini</title>" in html
    for page in (tmp_path / "site").rglob("*.html"):
        text = page.read_text()
        assert "<script>alert(1)" not in text and "<b>bold</b>" not in text, page
    index = json.loads((tmp_path / "site/search/search_index.json").read_text())
    titles = [doc["title"] for doc in index["docs"] if doc["location"].startswith("formats/fmt-fp4/")]
    assert titles and all("<script>" not in t for t in titles)


def test_diff_comment_end_to_end_with_a_hostile_record(tree: Path, capsys):
    import shutil
    import subprocess

    from generators.cli import main
    if shutil.which("git") is None:
        pytest.skip("git is not installed")

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false",
                        *args], cwd=tree, check=True, capture_output=True)
    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    record = tree / "records/formats/fmt-fp4.yaml"
    record.write_text(record.read_text().replace("name: FP4 block format", f"name: {json.dumps(HOSTILE)}")
                      + f"{json.dumps(HOSTILE)}: x\n")
    assert main(["--root", str(tree), "diff", "HEAD"]) == 0
    markdown = capsys.readouterr().out
    assert "fmt-fp4" in markdown and "unknown field" in markdown
    page = github_html(markdown)
    assert page.tags <= OUR_TAGS, page.tags - OUR_TAGS
    outside = "".join(page.outside)
    assert "@octocat" not in outside and "e.example" not in outside


def test_escape_text_matches_its_rules_on_every_hostile_character():
    """The one-pass escaper states its rules in its docstring; check them on text holding every special character."""
    from generators.render.markdown import escape_text
    assert escape_text("  a\t\nb  ") == "a b"
    assert escape_text("\\`*_{}[]()#+!") == "\\\\\\`\\*\\_\\{\\}\\[\\]\\(\\)\\#\\+\\!"
    assert escape_text("<b>&amp;|</b>") == "&lt;b&gt;&amp;amp;&#124;&lt;/b&gt;"
    assert escape_text("12. item") == "12\\. item" and escape_text("- item") == "\\- item"
    assert escape_text(True) == "yes" and escape_text(1.5) == "1.5"


def test_what_runs_otherwise_is_escaped_in_the_support_notes_and_the_reason_column():
    from markupsafe import Markup, escape

    from generators.derive.cells import Cell, Otherwise
    from generators.model.verdicts import Verdict
    from generators.render.markdown import escape_text
    from generators.render.matrix import otherwise_markup

    step = Otherwise("k", (HOSTILE,), Verdict.FALLBACK, "k2", computes_as=HOSTILE)
    cell = Cell("e", "s", "t", Verdict.RUNS_IF, "k", (HOSTILE, "another condition"), (), otherwise=(step,))
    ref = lambda target: Markup('<a href="x">{}</a>').format(target)  # noqa: E731
    for text in (escape, escape_text):
        shown = otherwise_markup(cell, ref, text)
        assert "<script>" not in shown and "<img" not in shown and shown.count("&lt;script&gt;") == 2
        assert '<span class="verdict verdict-fallback"' in shown and '<a href="x">kernel/k2</a>' in shown


def test_the_kernel_lead_shows_record_text_as_text_in_html_and_in_a_markdown_table():
    # the lead of a cell whose own kernel needs an opt-in fills WORDS' sentence with kernel ids and conditions (record
    # text): in the support tables' HTML (`escape`) and chapter 23's Markdown tables (`escape_text`, where a `|` in a
    # condition would end the cell), none of it is read as markup
    from markupsafe import Markup, escape

    from generators.derive.cells import Assumed, Cell, Otherwise
    from generators.model.verdicts import Verdict
    from generators.render.markdown import escape_text
    from generators.render.matrix import kernel_lead

    step = Otherwise(HOSTILE, (HOSTILE,), Verdict.RUNS_IF, "k2", conditions=(HOSTILE + " 2",))
    cell = Cell("e", "s", "t", Verdict.RUNS_IF, HOSTILE, (HOSTILE,), (), otherwise=(step,), default_kernel="k2",
                default_where=(HOSTILE + " 3",), opt_in=(Assumed(HOSTILE, "the install", (), ""),))
    ref = lambda target: Markup('<a href="x">{}</a>').format(target)  # noqa: E731
    for text in (escape, escape_text):
        shown = kernel_lead(cell, ref, text)
        # the opt-in kernel's id (escaped by `ref`), the where, what the default kernel needs, the opt-in: four copies
        assert "<script>" not in shown and "<img" not in shown and shown.count("&lt;script&gt;") == 4, shown
        assert shown.startswith('<a href="x">k2</a> on a default install ') and ", which runs only if " in shown
    assert "|" not in kernel_lead(cell, lambda k: Markup("k"), escape_text).replace("&#124;", "")


def test_a_step_on_another_device_says_so_in_the_support_notes():
    # a placement step (a requirement's `elsewhere`): the badge is that device's outcome, not this target's
    from markupsafe import Markup, escape

    from generators.derive.cells import Cell, Otherwise
    from generators.model.verdicts import Verdict
    from generators.render.matrix import otherwise_markup

    step = Otherwise("k", ("placed on the GPU",), Verdict.RUNS, "k", elsewhere=HOSTILE)
    cell = Cell("e", "s", "t", Verdict.RUNS_IF, "k", ("placed on the GPU", "another"), (), otherwise=(step,))
    ref = lambda target: Markup('<a href="x">{}</a>').format(target)  # noqa: E731
    shown = otherwise_markup(cell, ref, escape)
    assert "<script>" not in shown and shown.count("&lt;script&gt;") == 1
    assert shown.endswith(" instead, not on this hardware") and '<a href="x">kernel/k</a> on ' in shown


def _escape_text_before_issue_13(value):
    """escape_text as it was written before issue 13 (no cache, one str.translate): the reference the faster one must
    equal (with the `???`, `~~~` and `=` rule since added to both)."""
    import re

    from markupsafe import Markup
    if isinstance(value, Markup):
        return value
    if isinstance(value, bool):
        value = "yes" if value else "no"
    escapes = str.maketrans({**{c: "\\" + c for c in "\\`*_{}[]()#+!"}, "&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;"})
    text = " ".join(str(value).split()).translate(escapes)
    if text[:1].isdigit():
        text = re.sub(r"^(\d+)\.(\s)", r"\1\\.\2", text)
    if text.startswith("-"):
        text = "\\" + text
    if text.startswith(("???", "~~~")) or (text[:1] == "=" and not text.strip("=")):
        text = {"?": "&#63;", "~": "&#126;", "=": "&#61;"}[text[0]] + text[1:]
    return Markup(text)


_LIST_STARTS = st.sampled_from(["", "1. ", "12.\t", "3.", "4.x", "-", " - ", "\n-1. ", "??? ", "~~~", "==="])  # what the list rule sees
_SPECIAL = st.lists(st.sampled_from(["1", "23", ".", "-", " ", "\t", "\n", "a", "\\", "`", "*", "_", "{", "]", "(", "#",
                                     "+", "!", "&", "<", ">", "|", "?", "~", "="])).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.integers(), st.floats(), st.booleans(), st.builds(str.__add__, _LIST_STARTS, _SPECIAL)))
def test_escape_text_equals_the_uncached_escaper_on_any_value(value):
    from markupsafe import Markup

    from generators.render.markdown import escape_text
    expected = _escape_text_before_issue_13(value)
    for _ in range(2):  # the second call is answered by the cache
        shown = escape_text(value)
        assert type(shown) is Markup and str(shown) == str(expected)


_FILLED = st.one_of(st.text(), st.integers(), st.floats(), st.booleans(), st.text().map(Markup),
                    st.sampled_from(["<b>", "a & b", "\"'", "{}", "{0}", "&amp;"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_FILLED, st.sampled_from(['<a title="{}">', "{}: ", "<b>{}</b>", "{}"])), min_size=1, max_size=4))
def test_fill_equals_markup_format_on_any_value(fields):
    """render.markdown.fill puts each value into the template as Markup.format does: Markup as is, the rest escaped."""
    from generators.render.markdown import fill
    values, template = [value for value, _ in fields], "".join(field for _, field in fields)
    shown = fill(template, *values)
    assert type(shown) is Markup and str(shown) == str(Markup(template).format(*values))


class _Html:
    """An object that is not Markup but says how it is written in HTML (markupsafe takes its __html__)."""

    def __init__(self, text: str):
        self.text = text

    def __html__(self) -> str:
        return self.text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_FILLED, st.text().map(_Html)), max_size=6), st.sampled_from(["", ", ", "<br>", " · ", "&"]))
def test_joined_equals_markup_join_on_any_items(items, separator):
    """render.markdown.joined joins as Markup(separator).join does: Markup and __html__ as they are, the rest escaped."""
    from generators.render.markdown import joined
    shown = joined(separator, iter(items))  # (any iterable: the pages pass generators and lists)
    assert type(shown) is Markup and str(shown) == str(Markup(separator).join(items))


_PROSE = st.lists(st.sampled_from(["a", "b", "1", "23", ".", "-", " ", "\t", "\\", "`", "*", "_", "{", "}", "[", "]", "(",
                                   ")", "#", "+", "!", "&", "<", ">", "|", "=", ":", "~", "?", "%", "'", '"', "javascript:",
                                   "<script>", "{{ x }}", "{% if %}", "&amp;", "&#124;", "1. ", "- ", "!!! ", "??? ", "~~~"])).map("".join)
_PIECES = st.lists(st.one_of(st.tuples(st.just("text"), _PROSE),
                             st.tuples(st.just("slot"), st.sampled_from(["host", "platforms"])),
                             st.tuples(st.just("shown"), _PROSE.map(lambda s: s.replace("}", "")))), min_size=1, max_size=6)


# mkdocs.yml's markdown_extensions, and fenced_code, which MkDocs adds to every site (mkdocs/config/defaults.py builtins)
SITE_EXTENSIONS = ["tables", "admonition", "attr_list", "pymdownx.details", "toc", "fenced_code"]


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


@settings(max_examples=300, deadline=None)
@given(_PIECES, _PROSE, _PROSE)
@example([("shown", "the map "), ("text", "of")], "", "")  # a space at a piece's end once went: "the mapof"
@example([("slot", "host"), ("text", ". x")], "1", "")  # pieces escaped alone once made "1. x", an ordered list
@example([("text", " "), ("slot", "host"), ("text", ". x")], "1", "")  # and after a kept leading space, " 1. x"
@example([("slot", "host"), ("text", " "), ("slot", "platforms"), ("text", " x")], " ", " ")  # four spaces: code
@example([("text", "x "), ("slot", "host"), ("text", " ")], "", "")  # two trailing spaces: a line break before the next
@example([("text", "1. ")], "", "")  # "1. " before the next line: a list item that takes that line
@example([("slot", "host"), ("text", "?? note")], "?", "")  # "??? note", a details block (pymdownx.details)
@example([("slot", "host"), ("text", "~~")], "~", "")  # "~~~", a code fence
@example([("slot", "host"), ("text", "==")], "=", "")  # "===", under a line of prose a heading
def test_a_shared_sentence_on_a_page_shows_its_words_and_the_record_text_as_text(pieces, host, platforms):
    """render/markdown.py fill_words puts one of derive/wording.py's sentences on a record page (the plugin note fills
    plugin_of with an engine's name): whatever the template's own text and the record text hold (tags, links, Markdown
    emphasis, a table's |, Jinja's braces, entities), the page shows exactly the sentence explain prints, in one
    paragraph with no element of its own."""
    import markdown

    from generators.derive.wording import fill as fill_plain
    from generators.render.markdown import fill_words
    template = "".join(text if kind == "text" else "{" + text + "}" if kind == "slot" else "{platforms|" + text + "}"
                       for kind, text in pieces)
    values = {"host": host, "platforms": platforms}
    sentence = str(fill_words(template, **values))
    # on a line of its own, with a line after it, a line before it, and twice (a code fence's two ends)
    for page in (sentence + "\nnext", "Prose.\n" + sentence, sentence + "\n\nx\n\n" + sentence):
        html = markdown.markdown(page, extensions=SITE_EXTENSIONS)
        shown = _Text()
        shown.feed(html)
        assert set(shown.tags) <= {"p"}, html
    html = markdown.markdown(sentence + "\nnext", extensions=SITE_EXTENSIONS)
    shown = _Text()
    shown.feed(html)
    assert " ".join("".join(shown.text).split()) == " ".join((fill_plain(template, **values) + " next").split()), html


@pytest.mark.parametrize("prose,values", [("", ["??? note"]), ("", ['???+ danger "Open"']), ("", ["~~~", "x", "~~~"]),
                                          ("", ["~~~~ python", "x", "~~~~"]), ("Some prose.", ["==="]),
                                          ("Some prose.", ["="])])
def test_record_text_that_starts_a_line_opens_no_block(prose, values):
    """A layout puts record text at the start of a line (a record's summary and notes, a table's note, an admonition's
    body), some under a line of prose. The site's Markdown reads blocks there that escape_text's backslashes do not
    cover: `???` opens a details block (pymdownx.details), `~~~` a fenced code block (MkDocs adds fenced_code to every
    site) and a line of `=` under a paragraph line makes that line a heading. Each shows as the text it is."""
    import markdown

    from generators.render.markdown import escape_text
    lines = ([prose] if prose else []) + [str(escape_text(value)) for value in values]
    html = markdown.markdown("\n".join(lines), extensions=SITE_EXTENSIONS)
    shown = _Text()
    shown.feed(html)
    assert set(shown.tags) <= {"p"}, html
    assert " ".join("".join(shown.text).split()) == " ".join([prose, *values]).strip(), html


def test_chapter_23_links_each_target_to_its_own_heading_whatever_its_name(tree: Path, tmp_path: Path):
    """Chapter 23's table of targets links each to its heading, and record names reach both. Linked by the slug of its
    name alone, a target named as another heading of the page ("By hardware target") linked that heading, the second
    of two targets of one name the first, and a name Markdown slugs to nothing (昇腾) `#`, the page's top: each heading
    now carries the id its link names. A name with tags, quotes or link syntax stays text, one cell of one row, and
    every row's counts are those its section shows (a target with no accelerator too)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    import yaml

    from .chapter23 import Chapter23
    from .conftest import ROOT
    hostile = 'A <b>x</b> "q" \'s\' ](#y) *e* | [l](https://e.example) {: #z}'
    names = {"gpu-sm90": "By hardware target", "gpu-sm80": "昇腾", "cpu-avx512": "昇腾", "gpu-sm86": hostile}
    spare = (tree / "records/hardware-targets/gpu-sm80.yaml").read_text()
    (tree / "records/hardware-targets/gpu-sm86.yaml").write_text(
        spare.replace("compute_capability: 80", "compute_capability: 86").replace("accelerators: [acc-old]",
                                                                                  "accelerators: []"))
    for stem, name in names.items():
        record = tree / f"records/hardware-targets/{stem}.yaml"
        record.write_text("\n".join([f"name: {json.dumps(name)}", *record.read_text().splitlines()[1:]]) + "\n")
    chapter = (ROOT / "docs/chapters/23-quantization-selection.md.j2").read_text().replace("nvidia-sm100", "gpu-sm90")
    write(tree, "docs/chapters/23-quantization-selection.md.j2", chapter)
    extensions = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["markdown_extensions"]  # the site's own
    write(tree, "mkdocs.yml", MKDOCS_YML + yaml.safe_dump({"markdown_extensions": extensions}))
    build(load_config(config_file=str(tree / "mkdocs.yml"), site_dir=str(tmp_path / "site")))
    page = Chapter23()
    page.feed((tmp_path / "site/chapters/23-quantization-selection/index.html").read_text())
    sections = {section.id: section for section in page.sections}
    assert sorted(text for _, text, _ in page.jumps) == sorted(names.values()) and len(sections) == len(page.sections)
    for href, text, counts in page.jumps:
        landed = sections[href[1:]]  # the target's own heading, not the h2 of its name nor the first of two
        assert landed.text == text, (href, landed.text, text)
        assert counts == [str(len(landed.served)), str(len(landed.refused)), str(len(landed.traps))], (text, counts)
    assert len({href for href, _, _ in page.jumps}) == len(names) and "#" not in [href for href, _, _ in page.jumps]
    assert page.tags <= {"article", "h1", "h2", "h3", "p", "a", "table", "thead", "tbody", "tr", "th", "td", "ul", "li",
                         "details", "summary", "strong", "em", "code", "span", "br", "div", "nav"}, page.tags
