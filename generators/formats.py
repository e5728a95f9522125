"""The `format` checks the compiled validator (jsonschema-rs) runs: each gives the answer jsonschema's own gives.

jsonschema validates only the records the compiled validator calls invalid, so these functions decide whether a
clean record is clean; tests/test_fast_paths.py holds both to the same answers on every schema. A format without a
function here is checked by jsonschema's own function (imported then, not before).
"""
from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable
from typing import Any

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def is_date(value: Any) -> bool:
    """RFC 3339 full-date: four-digit year, two-digit month and day, a real calendar day."""
    if not isinstance(value, str):
        return True
    if not _DATE.fullmatch(value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


_PCHAR = r"[A-Za-z0-9._~!$&'()*+,;=:@-]"  # RFC 3986 pchar without percent-encoding
_PLAIN_URL = re.compile(rf"https?://[A-Za-z0-9._~-]+(?::[0-9]+)?(?:/{_PCHAR}*)*(?:\?(?:{_PCHAR}|[/?])*)?(?:#(?:{_PCHAR}|[/?])*)?")


def is_uri(value: Any) -> bool:
    """An absolute URI by RFC 3986 (a scheme, then the rest), as jsonschema checks it with rfc3986-validator.

    A plain http(s) address (a host of letters, digits, dots and hyphens; a path, query and fragment of RFC 3986's
    own characters, no percent-escapes) is one by the RFC's grammar; anything else asks rfc3986-validator, whose
    pattern costs a few hundredths of a second to compile, so most checks never import it.
    """
    if not isinstance(value, str):
        return True
    if _PLAIN_URL.fullmatch(value):
        return True
    from rfc3986_validator import validate_rfc3986  # type: ignore[import-untyped]
    return bool(validate_rfc3986(value, rule="URI"))


OWN: dict[str, Callable[[Any], bool]] = {"date": is_date, "uri": is_uri}


def checks_for(documents: Iterable[Any]) -> dict[str, Callable[[Any], bool]]:
    """A check for every format named in the schema documents: ours, else jsonschema's own (looked up when first used)."""
    names: set[str] = set()
    for document in documents:
        _formats_in(document, names)
    return {name: OWN.get(name) or _theirs(name) for name in sorted(names)}


def _formats_in(schema: Any, names: set[str]) -> None:
    if isinstance(schema, dict):
        if isinstance(schema.get("format"), str):
            names.add(schema["format"])
        for value in schema.values():
            _formats_in(value, names)
    elif isinstance(schema, list):
        for item in schema:
            _formats_in(item, names)


def _theirs(name: str) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        from jsonschema import Draft202012Validator
        return bool(Draft202012Validator.FORMAT_CHECKER.conforms(value, name))
    return check
