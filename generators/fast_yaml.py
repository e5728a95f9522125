"""The fast path of load: a record's text parsed by yaml-rs (Rust, no positions) when nothing in it can read otherwise.

libyaml, read node by node (load.py), is the reference: it keeps every position, and load's rules (YAML 1.1 numbers,
booleans and dates, tags, anchors, duplicate and non-text keys) are written against its nodes. yaml-rs reads YAML 1.2
about five times faster, and on most of a record it builds exactly the same data. It is trusted only on a text in
which no scalar could be read differently by the two, and where it raises or builds something other than a mapping
the file goes the slow way, which then reports what is wrong (with its line and column) or builds the data. So the
fast path changes no outcome: a file it declines costs one extra fast parse, never a different answer.

A text is declined when it holds any of (`_declined` below; false alarms only cost time):
- a backslash (an escape can hide a control character), a byte order mark inside the text, a tab, a line starting
  with `%` (a directive), a line of 1,000 characters or more (libyaml's implicit keys end at 1,024), a quoted key
  whose quotes began on an earlier line;
- at the start of a node: an anchor `&`, an alias `*` or a tag `!`;
- a plain scalar that either reader might take for a number and that is not a plain decimal (at most 15 digits
  before the point, no leading zero): YAML 1.1 reads `010` as octal, `1_000` without its underscore, `1e3` as text,
  `1:30` as 90, where YAML 1.2 (or yaml-rs) reads them otherwise, and load refuses some of them;
- a plain scalar that YAML 1.1 reads as a boolean or a merge or value key (`yes`, `No`, `on`, `OFF`, `<<`, `=`);
- an indicator starting a flow item or a line (`[?]`, `{|x}`), or a value right after a quoted key's colon
  (`{"a":x}`): libyaml refuses some of them and yaml-rs reads them as text;
- a plain key that is not text in either (a number, a date, a boolean, null, an empty key), a `?` key or a flow
  collection used as a key.
- a block scalar (`|`, `>`) in a text that also holds a flow collection (`[`, `{`), where it may sit inside one,
  or in a text whose last line has no line break;
Duplicate keys make yaml-rs raise, so the slow way reports them.
"""
from __future__ import annotations

import re
from typing import Any

_END = r"[ \t]*(?:$|#|[,\]}]|:(?:[ \t]|$))"  # where a plain scalar ends
_DECIMAL = r"[-+]?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]+)?"  # read alike by both, and within load's range
_NUMBER_LIKE = "|".join((  # whatever either reader might take for a number (generous: a false alarm costs only time)
    r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)(?:[eE][-+]?[0-9_]+)?",  # decimal, underscores, exponent
    r"[-+]?0[xXoObB][0-9a-fA-F_]+",  # hexadecimal, octal, binary
    r"[-+]?\.(?i:inf|nan)",
    r"[-+]?[0-9][0-9_]*(?::[0-9_]+)+(?:\.[0-9_]*)?",  # base 60 (YAML 1.1)
))
# Searched in "\n" + text, each rule starting where a node can begin: a line, after an indicator or a flow delimiter
# (the leading character set lets the search skip ahead fast).
_SCALARS = re.compile(r"[\n:?\[{,-](?:(?<!-)|(?=[ \t]))[ \t]*(?=[-+.0-9~<=yYnNoOtTfF:])(?:" + "|".join((
    rf"(?=[-+.0-9])(?!{_DECIMAL}{_END})(?:{_NUMBER_LIKE}){_END}",  # a number not written as a plain decimal
    r"(?:[yY]es|YES|[nN]o|NO|[oO]n|ON|[oO]ff|OFF|<<|=)" + _END,  # a YAML 1.1 boolean, merge or value key
    r"(?:[-+.0-9~<=][^\s,\[\]{}#]*?|(?i:y|n|yes|no|on|off|true|false|null))?[ \t]*:(?:[ \t]|$)",  # a key not text
    r"(?<=[\[{,\s]):(?![ \t\n])",  # a colon starting a node
)) + ")", re.MULTILINE)
_RARE = re.compile(r"[&*!?@`%|>\\\t\ufeff]")
_INDICATORS = re.compile("|".join((  # searched when _RARE finds one of its characters
    r"[\\\t\ufeff]",  # an escape (it can hide a control character), a tab, a byte order mark inside the text
    r"^%",  # a directive
    r"(?:^|[:?\[{,]|-[ \t])[ \t]*[&*!?@`%]",  # an anchor, alias or tag; a reserved or misplaced indicator
    r"(?:^|[:?]|-[ \t])[ \t]*[|>](?![-+0-9]*[ \t]*(?:#[^\n]*)?$)",  # `|` or `>` that does not open a block scalar
    r"(?:^|[\[{,])[ \t]*[|>]",  # `|` or `>` starting a flow item or a line
)), re.MULTILINE)
_BLOCK_SCALAR = re.compile(r"(?:^|[:?]|-[ \t])[ \t]*[|>][-+0-9]*[ \t]*(?:#[^\n]*)?$", re.MULTILINE)
_FLOW_KEY = re.compile(r"[\]}][ \t]*:(?:[ \t]|$)", re.MULTILINE)  # a flow collection used as a key
_QUOTED_KEY = re.compile(r"^[^\"'\n]*[\"'][ \t]*:(?:[ \t]|$)|[\"']:(?![ \t]|$)", re.MULTILINE)
_LONG_LINE = re.compile(r"^[^\n]{1000}", re.MULTILINE)


def _declined(text: str) -> bool:
    """True when some scalar, key or indicator in the text may read differently in yaml-rs and in libyaml."""
    if _SCALARS.search("\n" + text) or (_RARE.search(text) and _INDICATORS.search(text)):
        return True
    flow, block = "[" in text or "{" in text, ("|" in text or ">" in text) and _BLOCK_SCALAR.search(text)
    if flow and (_FLOW_KEY.search(text) or block):
        return True  # inside a flow collection `|` and `>` are text to yaml-rs and an error to libyaml
    if block and not text.endswith("\n"):
        return True  # a block scalar on the last line: yaml-rs ends it with a line break that is not in the file
    if ('"' in text or "'" in text) and _QUOTED_KEY.search(text):
        return True  # a key whose quotes began on an earlier line, or a value right after a quoted key's colon
    return len(text) >= 1000 and _LONG_LINE.search(text) is not None  # libyaml's implicit keys end at 1,024


try:
    import yaml_rs
except ImportError:  # optional speed-up: libyaml alone gives the same answers, slower
    yaml_rs = None  # type: ignore[assignment]


def parse(text: str) -> dict[str, Any] | None:
    """The record's data, or None when the fast path cannot vouch for it (load then reads it with libyaml)."""
    if yaml_rs is None or _declined(text):
        return None
    try:
        data = yaml_rs.loads(text, parse_datetime=False, duplicate_key_policy=yaml_rs.DuplicateKeyPolicy.Error)
    except Exception:  # noqa: BLE001 - whatever it refuses, libyaml reads and reports with a position
        return None
    except BaseException as error:  # a panic in the extension is a BaseException
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return None
    return data if data.__class__ is dict and data else None
