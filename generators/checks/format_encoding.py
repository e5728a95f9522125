"""Hardware formats that share a peak precision each name a distinct `encoding`, which their `element_format` names first.

A part's figure in a shared precision ('FP8') says nothing about which of its formats it covers: only an encoding
named on each format lets the derivation tell an FP8 figure that names E4M3 from one that names no encoding. The
prose `element_format` ('E4M3 (float8_e4m3fn)') is a claim checked against the typed field, not a second source.
"Computes in" says a format by the precision label of the two fields (route_computes.precision_label), so two
hardware formats whose fields differ yet read alike ('FP8 E4M3 FNUZ' from fp8 + e4m3fnuz and from fp8-fnuz +
e4m3fnuz) would tell a reader two multiplies are one: they are flagged too.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.route_computes import precision_label
from ..derive.tallies import hardware_formats
from ..model.atlas import Atlas
from ..model.records import Record
from ..problems import Problem
from .base import Check, at

NAME = "format-encoding"


def run(atlas: Atlas) -> Iterator[Problem]:
    sharing: dict[str, list[Record]] = {}
    for fmt in hardware_formats(atlas.index):
        if "peak_precision" in fmt.data:
            sharing.setdefault(str(fmt.data["peak_precision"]), []).append(fmt)
    for fmt in atlas.index.all("format"):
        peers = [p for p in sharing.get(str(fmt.data.get("peak_precision")), []) if p.id != fmt.id]
        if "encoding" in fmt.data:
            yield from _named(fmt, str(fmt.data["encoding"]), peers)
        elif peers and fmt.data.get("format_class") == "hardware":
            yield at(fmt, ("peak_precision",), NAME,
                     f"shares peak precision {fmt.data['peak_precision']!r} with {', '.join(repr(p.id) for p in peers)}; "
                     f"name its `encoding` so a figure in that precision is read for the encodings it names")
    yield from _said_alike(list(hardware_formats(atlas.index)))


def _said_alike(formats: list[Record]) -> Iterator[Problem]:
    """Hardware formats of different fields whose precision label is the same (the same fields are flagged above)."""
    fields = {f.id: (str(f.data["peak_precision"]), str(f.data.get("encoding", ""))) for f in formats
              if "peak_precision" in f.data}
    for fmt in formats:
        if fmt.id not in fields:
            continue
        label = precision_label(*fields[fmt.id])
        alike = [i for i, f in fields.items() if f != fields[fmt.id] and precision_label(*f) == label]
        if alike:
            yield at(fmt, ("peak_precision",), NAME, f"\"Computes in\" would say {label!r} for it and for "
                     f"{', '.join(map(repr, alike))}, whose peak precision or encoding differs; correct the fields")


def _named(fmt: Record, encoding: str, peers: list[Record]) -> Iterator[Problem]:
    if fmt.data.get("format_class") != "hardware" or "peak_precision" not in fmt.data:
        yield at(fmt, ("encoding",), NAME, "only a hardware format with a peak precision names an encoding")
    element = str(fmt.data.get("element_format", ""))
    if element and not element.upper().startswith(encoding.upper()):
        yield at(fmt, ("element_format",), NAME,
                 f"element_format {element!r} does not begin with the encoding {encoding.upper()!r} the record names")
    same = [p.id for p in peers if p.data.get("encoding") == encoding]
    if same:
        yield at(fmt, ("encoding",), NAME, f"{', '.join(map(repr, same))} names the same encoding in the same precision")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "tree", run)
