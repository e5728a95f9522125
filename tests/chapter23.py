"""Chapter 23 as a reader sees it in the built HTML: its table of targets (each link and its counts) and each target's
section (its heading's id and text, the schemes its served table names, the schemes its refusal fold lists, the traps
it links), so a test compares the table's counts with what the sections show."""
from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

REFUSALS = "Schemes refused or failing here"


@dataclass
class Section:
    id: str
    text: str = ""
    served: list[str] = field(default_factory=list)  # scheme links of the served table's first column, row by row
    refused: list[str] = field(default_factory=list)  # the first link of each item of the refusal fold's list
    traps: set[str] = field(default_factory=set)  # gotcha pages the "Traps that apply" paragraph links
    summaries: list[str] = field(default_factory=list)  # each refusal fold's summary text
    open_folds: int = 0


class Chapter23(HTMLParser):
    """Feed it a built page; read .jumps (href, text, [served, refused, traps] as written) and .sections (by h3)."""

    def __init__(self) -> None:
        super().__init__()
        self.article = 0
        self.jumps: list[tuple[str, str, list[str]]] = []
        self.sections: list[Section] = []
        self.tags: set[str] = set()  # every tag inside the article
        self._text: list[str] | None = None  # where the text read now goes
        self._table = ""  # the current table's first header
        self._cell = -1  # the current cell's position in its row
        self._list_depth = 0  # lists open inside the current fold
        self._heading = False  # inside an h3, before its permalink
        self._fold = False  # inside a refusal fold
        self._open = False  # whether the fold read now was open
        self._item_open = False  # a fold's top-level item whose first link is not read yet
        self._traps = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        self.article += tag == "article"
        if not self.article:
            return
        self.tags.add(tag)
        href, section = found.get("href", ""), self.sections[-1] if self.sections else None
        if tag == "h3":
            self.sections.append(Section(found.get("id", "")))
            self._text, self._heading = [], True
        elif tag == "a" and "headerlink" in found.get("class", "") and section and self._heading:
            section.text, self._text, self._heading = " ".join("".join(self._text or []).split()), None, False
        elif tag == "table":
            self._table, self._text = "", []
        elif tag == "tr":
            self._cell = -1
        elif tag == "td":
            self._cell += 1
            if self._table == "target":
                if self._cell == 0:
                    self.jumps.append(("", "", []))
                self._text = []
        elif tag == "a" and self._table == "target" and self._cell == 0:
            self.jumps[-1] = (href, "", [])
        elif tag == "a" and section and self._table == "schemes" and self._cell == 0 and "/schemes/" in href:
            section.served.append(href)
        elif tag == "details" and section:
            self._fold, self._list_depth, self._open = False, 0, "open" in found
        elif tag == "summary" and section:
            self._text = []
        elif tag == "ul" and self._fold:
            self._list_depth += 1
        elif tag == "li" and self._fold and self._list_depth == 1:
            self._item_open = True
        elif tag == "a" and self._item_open and section:
            section.refused.append(href)
            self._item_open = False
        elif tag == "p" and section:
            self._text = []
        elif tag == "a" and self._traps and section and "/gotchas/" in href:
            section.traps.add(href.split("#")[0])  # (a contested trap's mark links its open contest on the same page)

    def handle_endtag(self, tag: str) -> None:
        if not self.article:
            return
        self.article -= tag == "article"
        section = self.sections[-1] if self.sections else None
        text = "".join(self._text or [])
        if tag == "h3" and section:
            section.text = section.text if not self._heading else " ".join(text.split())
            self._text, self._heading = None, False
        elif tag == "th" and not self._table:
            self._table, self._text = " ".join(text.split()), None
        elif tag == "td" and self._table == "target":
            href, shown, counts = self.jumps[-1]
            self.jumps[-1] = (href, shown or " ".join(text.split()), counts + ([text.strip()] if self._cell >= 2 else []))
            self._text = None
        elif tag == "table":
            self._table = ""
        elif tag == "summary" and section:
            self._fold, self._text = text.strip().startswith(REFUSALS), None
            if self._fold:  # (a served row's "if not" folds are no refusal list)
                section.summaries.append(" ".join(text.split()))
                section.open_folds += self._open
        elif tag == "ul" and self._fold:
            self._list_depth -= 1
        elif tag == "details":
            self._fold = False
        elif tag == "p":
            self._traps = False
            self._text = None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)
            if self.sections and "".join(self._text).lstrip().startswith("Traps that apply"):
                self._traps = True
