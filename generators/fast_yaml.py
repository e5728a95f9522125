r"""The fast path of load: a record's text parsed by yaml-rs (Rust, no positions) when nothing in it can read otherwise.

libyaml, read node by node (load.py), is the reference: it keeps every position, and load's rules (YAML 1.1 numbers,
booleans and dates, tags, anchors, duplicate and non-text keys) are written against its nodes. yaml-rs reads YAML 1.2
about five times faster, and on most of a record it builds exactly the same data. It is trusted only on a text in
which no scalar could be read differently by the two, and where it raises or builds something other than a mapping
the file goes the slow way, which then reports what is wrong (with its line and column) or builds the data. So the
fast path changes no outcome: a file it declines costs one extra fast parse, never a different answer.

A text is declined when it holds any of (`_declined` below; false alarms only cost time):
- a backslash that does not start one of the escapes both read alike (`_BAD_ESCAPE`, below), a byte order mark
  inside the text, a tab, a carriage return (a line break to both readers, where the rules below look for `\n`
  only: `a: yes\r\n` passed as text), a line of 1,000 characters or more (libyaml's implicit keys end at 1,024),
  a line starting with `...` (a document end marker: libyaml refuses one before the document, yaml-rs reads past
  it), a quoted key whose quotes began on an earlier line (its line's first quote, or a quote after an escaped one,
  before `: `);
- at the start of a block node (after `:` or `?` and blanks, after `- `) or of a line: an anchor `&`, an alias
  `*`, a tag `!`, a `?` or a `%` (at a line's start, a directive); at a line's start also `|` or `>`;
- after the first `[` or `{` that starts a node (where a flow collection may be open: `_flow_start`): any of those, `|` or `>` right
  after a `,`, `[` or `{`; a `:` right before `,`, `[`, `]`, `{` or `}` (`[a:]`: libyaml refuses it, yaml-rs
  reads a key); a block scalar (inside a flow collection `|` is text to yaml-rs, an error to libyaml);
- a plain scalar that either reader might take for a number and that is not a plain decimal (at most 15 digits
  before the point, no leading zero): YAML 1.1 reads `010` as octal, `1_000` without its underscore, `1e3` as text,
  `1:30` as 90, where YAML 1.2 (or yaml-rs) reads them otherwise, and load refuses some of them;
- a plain scalar that YAML 1.1 reads as a boolean or a merge or value key (`yes`, `No`, `on`, `OFF`, `<<`, `=`);
- a `|` or `>` that opens no block scalar at the start of a node, or a value right after a quoted key's colon
  (`{"a":x}`): libyaml refuses some of them and yaml-rs reads them as text;
- a plain key that is not text in either (a number, a date, a boolean, null, an empty key) before a `: `, a flow
  collection used as a key;
- a `#` after a blank and something else on its line (TRAILING_COMMENT): maybe a comment after an unquoted value,
  which load refuses because YAML drops the rest of the line, unless `#` is text to both readers there: the line
  lies in the content of a block scalar opened after a mapping key (`key: >-`, no indentation digit; the content is
  the lines indented at least as far as its first non-empty line, which must be indented further than the key, up
  to the first non-empty line indented less: `_block_content`), or the line is a mapping entry whose value is one
  quoted scalar that closes at the line's end (`key: 'a # b'`, `- key: "a # b"`: `_QUOTED_LINE`; a bare quoted
  line may continue a plain scalar, where `#` starts a comment); any other is left to the slow path;
- a block scalar in a text whose last line has no line break, or the last block scalar when no indented line
  (content) follows it: yaml-rs gives an empty one at the end a line break, libyaml gives it none.
Duplicate keys make yaml-rs raise, so the slow way reports them. After a fast parse, the data is declined when
(in a text holding a `{`) a key is not text, is text that YAML 1.1 reads as something else when plain, or holds a
blank: a flow mapping's key may have no `: ` after it (`{1}`, `{2024-01-01, a: b}`) for the text rules to see, and
a plain key folded from two lines in a flow mapping is read by yaml-rs and refused by libyaml (in a block mapping
or a flow sequence yaml-rs refuses one too).

Accepted, with why (each has crafted cases in tests/test_fast_yaml.py, data or refusal alike):
- A `,` is an indicator only inside a flow collection, and one can be open only after a `[` or `{` that starts a node:
  before the first of them, `x,!=1`, `a, &b` or `a,>b` are text to both readers.
- The reserved indicators `@` and `` ` `` cannot start any token in either reader (both refuse one there, and the
  fast path's refusal sends the file the slow way); anywhere else they are text to both.
- In a double-quoted scalar both read these escapes alike (checked against libyaml 0.2.5 and yaml-rs 0.1.6):
  `\0 \a \b \t \n \v \f \r \e \  \" \/ \\ \N \_ \L \P`, `\x` with 2, `\u` with 4 and `\U` with 8 hex digits,
  and an escaped line break (LF; a text with a CR is declined); outside a double-quoted scalar a backslash is text to both. Any other
  backslash is declined. An escape can put a control character in a value, which load refuses with its position:
  so after a fast parse of a text holding an escape that can make one (`_CONTROL_ESCAPE`: `\t`, `\n`, `\r`, `\_`
  and the rest cannot) every key and string is searched for the characters load refuses (`CONTROL`), and one
  found sends the file the slow way, which reports it.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import yaml

_END = r"[ \t]*(?:$|#|[,\]}]|:(?:[ \t]|$))"  # where a plain scalar ends
_DECIMAL = r"[-+]?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]+)?"  # read alike by both, and within load's range
_NUMBER_LIKE = "|".join((  # whatever either reader might take for a number (generous: a false alarm costs only time)
    # decimal, exponent, underscores anywhere (yaml-rs reads `_1`, `-_.5` and `1e_3` as numbers, YAML 1.1 as text)
    r"[-+]?(?:[0-9_]*[0-9][0-9_]*(?:\.[0-9_]*)?|[0-9_]*\.[0-9_]+)(?:[eE][-+]?[0-9_]+)?",
    r"[-+]?0[xXoObB][0-9a-fA-F_]+",  # hexadecimal, octal, binary
    r"[-+]?\.(?i:inf|nan)",
    r"[-+]?[0-9][0-9_]*(?::[0-9_]+)+(?:\.[0-9_]*)?",  # base 60 (YAML 1.1)
))
# Searched in "\n" + text, each rule starting where a node can begin: a line, after an indicator or a flow delimiter,
# and after any `- ` there (a block sequence entry opens only at a line's start, after `? ` or `: ` or another `- `;
# in a flow collection both readers refuse one). The blanks and `- ` markers are taken possessively (`*+`: never given
# back), which matches exactly the same texts and skips most of the backtracking: a node cannot start at a blank, and a
# node starting at a `-` followed by a blank matches only the rule of a key not text, as `- : x`, which the node after
# that `- ` (the `:`) matches too.
_NODE_RULES = r"[ \t]*+(?:-[ \t]++)*+(?=[-+._0-9~<=yYnNoOtTfF:])(?:" + "|".join((
    rf"(?=[-+._0-9])(?!{_DECIMAL}{_END})(?:{_NUMBER_LIKE}){_END}",  # a number not written as a plain decimal
    r"(?:[yY]es|YES|[nN]o|NO|[oO]n|ON|[oO]ff|OFF|<<|=)" + _END,  # a YAML 1.1 boolean, merge or value key
    r"(?:[-+.0-9~<=][^\s,\[\]{}#]*?|(?i:y|n|yes|no|on|off|true|false|null))?[ \t]*:(?:[ \t]|$)",  # a key not text
    r"[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9][^\n#]*?:(?:[ \t]|$)",  # a date key
    r"(?<=[\[{,\s]):(?![ \t\n])",  # a colon starting a node
)) + ")"
# One search per character a node may begin after, each starting with that character as a literal: the regex engine
# skips to a literal several times faster than to one of a set (over the real records `[\n:?\[{,]...` takes 0.14 s,
# the six searches 0.09 s; _MARKS as one set 0.075 s, as seven searches 0.018 s), and a text matches one of them
# exactly when it matches the set's pattern. Each is searched only in a text holding its character.
_SCALARS = tuple((first, re.compile(re.escape(first) + _NODE_RULES, re.MULTILINE)) for first in "\n:,?[{")
TRAILING_COMMENT = re.compile(r"[^ \t\n][ \t]+#")  # a comment after something on its line (maybe text: a false alarm)
# an anchor, alias, tag, key, directive or block scalar where a node may start: at the text's start, or right after
# one of ` \t\n[{,:?-` (most marks are prose: `why?`, `a*b`, `x > y`); one search per mark, as for _SCALARS
_MARKS = tuple((mark, re.compile(re.escape(mark) + r"(?<![^ \t\n\[{,:?-].)")) for mark in "&*!?%|>")
_HEADER = re.compile(r"[-+0-9]*[ \t]*(?:#[^\n]*)?(?:\n|\Z)")  # the rest of the line after `|` or `>` opening a block scalar
_CONTENT = re.compile(r"^ +[^ \n#]", re.MULTILINE)  # an indented line that may be a block scalar's content
_GLUED_COLON = re.compile(r":[,\[\]{}]")  # libyaml refuses a plain scalar's `:` right before a flow indicator
_FLOW_KEYS = (re.compile(r"\][ \t]*:(?:[ \t]|$)", re.MULTILINE), re.compile(r"}[ \t]*:(?:[ \t]|$)", re.MULTILINE))
# (a flow collection used as a key: one search per bracket, as for _SCALARS)
_QUOTE_COLONS = (re.compile(r'"[ \t]*:'), re.compile(r"'[ \t]*:"))  # a quoted key's end, maybe (a literal first
# character lets the search skip ahead about ten times faster than a set of two)
_BAD_ESCAPE = re.compile(  # a backslash that starts no escape both read alike: group 1 matches (empty) when so
    r"\\(?:[0abtnvfre \"/\\N_LP\n]|\r\n|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|())")


def _flow_start(text: str, at: int = 0) -> int:
    """Where the first `[` or `{` from `at` that may open a flow collection is (the text's length when none): one where
    a node can start, after only a line's indentation, `-` or `?` markers and a document's start (`---`), or after a
    `:` and blanks. Elsewhere on a line (in prose: `see [1]`, a quoted `'[-1, 128]'`) it is text to both readers; a
    false alarm (a line of a block scalar that starts with `[`) only costs time. Each candidate costs its line's
    prefix: linear in the text."""
    while True:
        found = [i for i in (text.find("[", at), text.find("{", at)) if i >= 0]
        if not found:
            return len(text)
        bracket = min(found)
        before = text[text.rfind("\n", 0, bracket) + 1:bracket].rstrip(" \t")
        if before.endswith(":") or all(marker in ("-", "?", "---") for marker in before.split()):
            return bracket
        at = bracket + 1


_CLOSES = {"[": "]", "{": "}"}
_FLOW_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \n_-.+/:")  # (see _flow_end)


def _flow_end(text: str, start: int) -> int:
    """Where the flow collection whose `[` or `{` is at `start` ends (just after its closing bracket), or the text's
    length when this cannot vouch for it. Only a collection whose every character outside quoted scalars is a letter,
    a digit, a blank, a line break, one of `_-.+/:`, a comma or a bracket is followed: there the two readers cannot
    differ on where its items and nested collections begin and end (no comment, no indicator but `,` `:` and the
    brackets, no quote in the middle of a plain scalar, no line starting with `---` or `...`). A quote opens a quoted
    scalar only right after `[`, `{` or `,` and blanks (a single-quoted one ends at a lone `'`, a double-quoted one at
    a `"` no backslash escapes), and must close on its line, which an escaped line break does not; a quote anywhere
    else (after `key: `, or inside a plain scalar, where it is text) ends the walk undecided. (`start` may be a false
    alarm, a `[` at a line's start in a block scalar: `a: |` then `  [x, 'y` then `b: [c, [e'f], g: |` then `  z]`.
    A quote opened there and closed lines later hides the real `[` after `b: `, the walk ends at `]` after `e'f`, and
    the `|` in the real collection looked like a block scalar to yaml-rs' text and libyaml's error alike; so did
    `  [x, "y\\` then `b: [c, [e"f], g: |`, the backslash in the block scalar taken for an escaped line break. A quote
    closed on its line hides only that line's text, and a walk begun at a false `[` holds one bracket more than the
    real collections it passes, so it cannot end inside one.)"""
    stack: list[str] = []
    at, end = start, len(text)
    while at < end:
        char = text[at]
        if char in _CLOSES:
            stack.append(_CLOSES[char])
        elif char == "]" or char == "}":
            if stack.pop() != char:
                return end
            if not stack:
                return at + 1
        elif char == "'" or char == '"':
            before = at
            while before > start and text[before - 1] in " \n":
                before -= 1
            if text[before - 1] not in "[{,":
                return end
            at += 1
            while at < end:
                if text[at] == char:
                    if char == "'" and text[at + 1:at + 2] == "'":
                        at += 1
                    else:
                        break
                elif text[at] == "\n":
                    return end  # (a quote from a false start, in a block scalar, may hide a real bracket: see above)
                elif char == '"' and text[at] == "\\":
                    at += 1
                    if text[at:at + 1] == "\n":
                        return end  # (an escaped line break: the scalar goes on to the next line, as above)
                at += 1
            else:
                return end
        elif char == "\n" and text.startswith(("---", "..."), at + 1):
            return end  # (a document's start or end marker)
        elif char != "," and char not in _FLOW_PLAIN:
            return end
        at += 1
    return end


def _in_flow(text: str, flow: int, at: int) -> bool:
    """Whether a flow collection may be open at `at`: from the first that may open (`flow`) to its end, then from the
    next one to its end, and so on (_flow_end; a collection it cannot follow is open to the text's end)."""
    while flow < at:
        end = _flow_end(text, flow)
        if at < end:
            return True
        flow = _flow_start(text, end)
    return False


def _declined(text: str) -> bool:
    """True when some scalar, key or indicator in the text may read differently in yaml-rs and in libyaml, or may
    end in a comment load refuses (TRAILING_COMMENT: the slow path looks at each plain value's end)."""
    if "\t" in text or "\r" in text or "\ufeff" in text or (len(text) >= 1000 and max(map(len, text.split("\n"))) >= 1000):
        return True  # (libyaml's implicit keys end at 1,024 characters; the rules below look back within a line)
    if text.startswith("...") or "\n..." in text:
        return True  # (a document end marker, maybe: libyaml refuses one before the document, yaml-rs reads past it)
    if "#" in text and _commented(text):
        return True
    if _scalar_hazard("\n" + text):
        return True
    flow = _flow_start(text)  # no flow collection can be open before it
    block = _marks(text, flow)
    if block is None or (block and (not text.endswith("\n") or not _CONTENT.search(text, block))):
        return True  # a block scalar on the last line, or empty at the end: yaml-rs reads a line break libyaml does not
    if flow < len(text) and (_GLUED_COLON.search(text, flow) or any(key.search(text, flow) for key in _FLOW_KEYS)):
        return True
    if "\\" in text and any(escape.group(1) is not None for escape in _BAD_ESCAPE.finditer(text)):
        return True
    return ('"' in text or "'" in text) and _quoted_key(text)


_KEY_BLOCK = re.compile(r"^( *)(?:- +)*[^ \n][^\n]*?:[ \t]+[|>][-+]?[ \t]*(?:#[^\n]*)?\n", re.MULTILINE)


def _block_content(text: str) -> list[tuple[int, int]]:
    """The spans of the text that are the content of a block scalar opened after a mapping key on its line (`key: >-`
    or `- key: |`, with no indentation digit): from the line after the header, the lines indented at least as far as
    the first non-empty one (which must be indented further than the key's column), and blank lines between them.
    A text whose block scalars this misses keeps its `#`s outside any span, and is declined as before."""
    spans = []
    for header in _KEY_BLOCK.finditer(text):
        line = text[header.start():header.end()]
        key_column = len(line) - len(line.lstrip(" -"))  # past the indentation and any `- ` of a sequence item
        at, content = header.end(), None
        end = at
        while at < len(text):
            stop = text.find("\n", at)
            stop = len(text) if stop < 0 else stop + 1
            row = text[at:stop]
            if row.strip(" \n"):
                indent = len(row) - len(row.lstrip(" "))
                if content is None:
                    if indent <= key_column:
                        break
                    content = indent
                elif indent < content:
                    break
                end = stop
            at = stop
        if content is not None:
            spans.append((header.end(), end))
    return spans


# a mapping entry whose value is one quoted scalar, closed at the line's end: a `#` on it is inside the quotes. The
# key is required: a bare quoted line, or `- 'a #b'`, may continue a plain scalar, where the `#` starts a comment
# (`a: first` then `  - 'x #y'` reads as "first - 'x"), while a `key: ` there makes both readers refuse the text.
_QUOTED_LINE = re.compile(r" *(?:- +)*[^ \n'\"#-][^\n#]*?: +(?:'(?:[^'\n]|'')*'|\"(?:[^\"\\\n]|\\.)*\") *")


def _commented(text: str) -> bool:
    """True when a `#` after a blank may start a comment after a value (TRAILING_COMMENT outside a block scalar's
    content and outside a line holding one quoted scalar). The block scalars' spans are found only when a `#` is on
    a line that holds no quoted scalar (most texts with a `#` have none such, and finding the spans walks lines)."""
    spans: list[tuple[int, int]] | None = None
    for hit in trailing_comments(text):
        line_start = text.rfind("\n", 0, hit) + 1
        line_end = text.find("\n", hit)
        if _QUOTED_LINE.fullmatch(text, line_start, len(text) if line_end < 0 else line_end):
            continue
        if spans is None:
            spans = _block_content(text)
        if not any(start <= hit < end for start, end in spans):
            return True
    return False


def trailing_comments(text: str) -> Iterator[int]:
    """Where a TRAILING_COMMENT match may start, on every line that holds one (and on no other line): for each `#` after
    one or more blanks that follow something else on its line, where that something ends. The regex's own search
    tries every position of the text (a fifth of a second over the real records); a `#` is rare, and str.find skips
    to the next one. (Several hits on one line, where finditer would give fewer, change no answer: every caller asks
    about the hit's line.)"""
    at = text.find("#")
    while at >= 0:
        before = at
        while before and text[before - 1] in " \t":
            before -= 1
        if before < at and before and text[before - 1] != "\n":
            yield before - 1
        at = text.find("#", at + 1)


def _marks(text: str, flow: int) -> int | None:
    """None when `&`, `*`, `!`, `?`, `%`, or a `|` or `>` that opens no block scalar, starts a block node; when any
    of them starts a line or (after `flow`) a flow item; or when a block scalar opens after `flow`. Else where the
    last block scalar's header ends (0 when none). A block node starts after `:` or `?` and blanks, or after `-`
    and a blank. A block scalar after `flow` is declined only where a flow collection may be open (_in_flow)."""
    block = 0
    for at in _mark_positions(text):
        before = at
        while before and text[before - 1] in " \t":
            before -= 1
        previous = text[before - 1] if before else "\n"
        if previous == "\n" or (previous in "[{," and before > flow):
            return None
        if previous in ":?" or (previous == "-" and before < at):
            header = _HEADER.match(text, at + 1)
            if text[at] not in "|>" or not header or (at > flow and _in_flow(text, flow, at)):
                return None  # in a flow collection `|` and `>` are text to yaml-rs and an error to libyaml
            block = header.end()
    return block


def _scalar_hazard(text: str) -> bool:
    """Whether one of the _SCALARS rules matches the text (given with a line break before it)."""
    return any(first in text and rule.search(text) is not None for first, rule in _SCALARS)


def _mark_positions(text: str) -> list[int]:
    """Where _MARKS match, in order."""
    return sorted(found.start() for mark, rule in _MARKS if mark in text for found in rule.finditer(text))


def _quoted_key(text: str) -> bool:
    """True when a quote then `: ` may close a key whose quotes began on an earlier line (the line's first quote,
    or one after an escaped quote), or a value is glued to a quoted key's colon (`{"a":x}`)."""
    for hit in (hit for quote_colon in _QUOTE_COLONS for hit in quote_colon.finditer(text)):
        follows = text[hit.end():hit.end() + 1]
        if follows not in ("", " ", "\t", "\n"):
            if hit.end() - hit.start() == 2:
                return True
            continue
        line = text[text.rfind("\n", 0, hit.start()) + 1:hit.start()]
        if ('"' not in line and "'" not in line) or "\\\"" in line or "\\'" in line or "''" in line:
            return True
    return False


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
    if data.__class__ is not dict or not data:
        return None
    controls, keys = "\\" in text and _CONTROL_ESCAPE.search(text) is not None, "{" in text
    if (controls or keys) and _suspect(data, controls, keys):
        return None  # the slow path reports the control character or the key, or reads the key as libyaml does
    return data


_CONTROL_ESCAPE = re.compile(r"\\[0abvfeNLPxuU]")  # the escapes that can make a character in CONTROL
_RESOLVER, _STR, _BLANK = yaml.resolver.Resolver(), "tag:yaml.org,2002:str", re.compile(r"\s")
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]")  # load refuses these in a record


def _suspect(data: dict[str, Any], controls: bool, keys: bool) -> bool:
    """True when (controls) a key or a string holds a character load refuses, or (keys) a key is not text, is text
    that YAML 1.1 reads as something else when plain (`{2024-01-01}`, `{1}`: a flow mapping's key without a value
    has no `: ` for the text rules to see), or holds a blank (a plain key folded from two lines, which libyaml
    refuses)."""
    stack: list[Any] = [data]
    while stack:
        value = stack.pop()
        if value.__class__ is dict:
            for key in value:
                if key.__class__ is not str:
                    return True
                if (controls and CONTROL.search(key)) or (keys and not _plain_text_key(key)):
                    return True
            stack.extend(value.values())
        elif value.__class__ is list:
            stack.extend(value)
        elif controls and value.__class__ is str and CONTROL.search(value):
            return True
    return False


_TEXT_KEYS: dict[str, bool] = {}


def _plain_text_key(key: str) -> bool:
    """True when the key holds no blank and YAML 1.1 reads it, written plain, as text (memoised: keys repeat)."""
    known = _TEXT_KEYS.get(key)
    if known is None:
        known = not _BLANK.search(key) and _RESOLVER.resolve(yaml.ScalarNode, key, (True, False)) == _STR  # type: ignore[no-untyped-call]
        if len(_TEXT_KEYS) < 100_000:
            _TEXT_KEYS[key] = known
    return known
