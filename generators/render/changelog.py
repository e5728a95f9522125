"""The changelog as a page's rows and as an Atom 1.0 feed (changelog.xml at the site root).

The feed is deterministic: no build time in it; every date comes from the data (release publication dates in
source records or the observation's date, commit dates for record changes), and the feed's `updated` is the
newest entry's. Record text and commit subjects are untrusted: ElementTree escapes them for XML, characters XML
1.0 cannot carry are dropped, and the HTML inside each entry's content is escaped before it is embedded.
"""
from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from typing import Any

from markupsafe import Markup

from ..derive.changelog import ChangeItem, ChangelogEntry, changelog
from ..kinds import FOLDER_OF_KIND
from ..model.verdicts import FALLBACK_IF_LABEL, Verdict
from .markdown import escape_text, joined
from .matrix import badge_of
from .values import ValueRenderer

FEED = "changelog.xml"
PAGE = "chapters/changelog.md"
ATOM = "http://www.w3.org/2005/Atom"
FEED_ID = "tag:quantization-atlas.invalid,2026:changelog"
TITLE = "Quantization × Hardware Atlas: changelog"
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def entries_of(atlas: Any) -> list[ChangelogEntry]:
    """Every changelog entry of the atlas, newest first."""
    views = atlas.views
    return changelog(atlas.index, views.flips, views.release_claims, tuple(getattr(atlas, "commits", ())))


def item_markup(item: ChangeItem, values: ValueRenderer) -> Markup:
    """An item's text, escaped, followed by links to the records it concerns; an item whose text is a lead and its
    one record's name shows the lead and that name as the link, rather than the name twice."""
    links = [values.ref(ref) for ref in item.refs]
    if item.lead and len(links) == 1:
        return escape_text(item.lead.rstrip()) + Markup(" ") + links[0]
    return _flip_markup(item) + (Markup(" — ") + joined(", ", links) if links else Markup(""))


def _flip_markup(item: ChangeItem) -> Markup:
    """A flip's text with its two verdicts in their colours, as the support tables draw them
    (`s on t: [Runs] via K → [Refused] (scheme)`, a side read as "fallback if" its "Fallback if" badge); any other
    item's text, escaped."""
    head, colon, move = item.text.partition(": ")
    before, arrow, after = move.partition(" → ")
    values = {v.value for v in Verdict}
    labels = item.labels or ("", "")
    sides = [(v, side, label.lower() or v) for v, side, label in zip(item.verdicts, (before, after), labels)]
    if not (colon and arrow and len(sides) == 2 and all(v in values and side.startswith(word) and side[len(word):][:1]
                                                        in ('', ' ') for v, side, word in sides)):
        return escape_text(item.text)
    drawn = [badge_of(Verdict(v), word == FALLBACK_IF_LABEL.lower()) + _after_badge(side[len(word):])
             for v, side, word in sides]
    return escape_text(head) + Markup(colon) + drawn[0] + Markup(arrow) + drawn[1]


def _after_badge(text: str) -> Markup:
    """What follows a verdict (` via K`, ` (scheme)`), escaped with its leading space kept (escape_text trims)."""
    return Markup(" ") + escape_text(text) if text.strip() else Markup("")


def _clean(text: str) -> str:
    return _NOT_XML.sub("", text)


def _record_href(ref: str) -> str:
    kind, _, record_id = ref.partition("/")
    return f"{FOLDER_OF_KIND.get(kind, kind)}/{record_id}/"


def _content(entry: ChangelogEntry) -> str:
    """The entry's items as an HTML list whose links are relative to the site root (where the feed is)."""
    lines = []
    whole = f"<p>{html.escape(entry.description)}</p>" if entry.description else ""
    for item in entry.items:
        links = ", ".join(f'<a href="{html.escape(_record_href(ref), quote=True)}">{html.escape(ref)}</a>'
                          for ref in item.refs)
        detail = "".join(f"<li>{html.escape(line)}</li>" for line in item.detail)
        lines.append(f"<li>{html.escape(item.text)}" + (f" ({links})" if links else "")
                     + (f"<ul>{detail}</ul>" if detail else "") + "</li>")
    return whole + ("<ul>" + "".join(lines) + "</ul>" if lines else "<p>Nothing moved.</p>")


def _text(parent: ET.Element, tag: str, text: str, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
    element.text = _clean(text)
    return element


def atom_feed(entries: list[ChangelogEntry]) -> str:
    """The entries as an Atom 1.0 document, newest first; the same entries give the same bytes."""
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")
    _text(feed, "id", FEED_ID)
    _text(feed, "title", TITLE)
    _text(feed, "updated", entries[0].atom_date if entries else "1970-01-01T00:00:00Z")
    ET.SubElement(feed, f"{{{ATOM}}}link", {"rel": "self", "href": FEED})
    ET.SubElement(feed, f"{{{ATOM}}}link", {"rel": "alternate", "type": "text/html", "href": "chapters/changelog/"})
    author = ET.SubElement(feed, f"{{{ATOM}}}author")
    _text(author, "name", "Quantization × Hardware Atlas")
    for entry in entries:
        element = ET.SubElement(feed, f"{{{ATOM}}}entry")
        _text(element, "id", f"{FEED_ID}/{entry.key}")
        _text(element, "title", f"{entry.origin}: {entry.title}")
        _text(element, "updated", entry.atom_date)
        ET.SubElement(element, f"{{{ATOM}}}link", {"rel": "alternate", "type": "text/html",
                                                   "href": f"chapters/changelog/#{entry.key}"})
        _text(element, "content", _content(entry), type="html")
    ET.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="unicode") + "\n"


def changelog_files(atlas: Any) -> dict[str, str]:
    """{site path: text} of the feed, written beside the pages by the MkDocs plugin and `build --out`."""
    return {FEED: atom_feed(entries_of(atlas))}
