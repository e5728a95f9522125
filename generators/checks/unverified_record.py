"""A record that rests on no primary source is a warning: the site marks it unverified, and `check --strict` fails until it is verified.

Findings are left out: a finding about a seed draft cites the draft as its subject, not as evidence.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.provenance import unverified_list
from ..model.atlas import Atlas
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "unverified-record"
EXEMPT = frozenset({"source", "finding"})


def run(atlas: Atlas) -> Iterator[Problem]:
    # The `unverified` view (derive.provenance.unverified_records of every kind but source, in kind and id order) is
    # what the site marks; it is computed once for this check and the pages, from the links alone.
    for gap in unverified_list(atlas.index, atlas.views.unverified):
        if gap.record.partition("/")[0] in EXEMPT:
            continue
        record = atlas.index.by_ref(gap.record)
        assert record is not None
        path = ("unverified",) if gap.declared else ()
        why = "see the reason declared here" if gap.declared else "and declares no reason"
        yield at(record, path, NAME, f"{record.kind} {record.id!r} rests on no primary source, so the site "
                 f"marks it unverified ({why}); cite one to clear this warning", severity="warning")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "tree", run, stage=SHAPE, warns_only=True)
