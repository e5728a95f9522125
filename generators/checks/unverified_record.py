"""A record that rests on no primary source is a warning: the site marks it unverified, and `check --strict` fails until it is verified.

Findings are left out: a finding about a seed draft cites the draft as its subject, not as evidence.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.provenance import unverified_records
from ..model.atlas import Atlas
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "unverified-record"
EXEMPT = frozenset({"source", "finding"})


def run(atlas: Atlas) -> Iterator[Problem]:
    kinds = tuple(kind for kind in atlas.index.by_kind if kind not in EXEMPT)
    for gap in unverified_records(atlas.index, kinds):
        record = atlas.index.by_ref(gap.record)
        assert record is not None
        path = ("unverified",) if gap.declared else ()
        why = "see the reason declared here" if gap.declared else "and declares no reason"
        yield at(record, path, NAME, f"{record.kind} {record.id!r} rests on no primary source, so the site "
                 f"marks it unverified ({why}); cite one to clear this warning", severity="warning")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "tree", run, stage=SHAPE, warns_only=True)
