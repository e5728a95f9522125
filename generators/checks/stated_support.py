"""A native or emulated list a source states for a format agrees with the derivation from peaks and instructions, or a finding explains why not.

Only hardware formats can be native or emulated, so any list stated for a checkpoint format or a
category disagrees by definition. An explanation attached to a list that agrees is stale.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..model.atlas import Atlas
from ..problems import Problem
from .base import Check, at

NAME = "stated-support"
# While the accelerator peaks are being audited against datasheets, a hardware format's stated list that the
# peaks do not yet reproduce is reported as a warning (shown on the gaps page); checkpoint formats always fail.
PEAKS_UNDER_AUDIT = False


def run(atlas: Atlas) -> Iterator[Problem]:
    tallies = atlas.views.tallies
    for fmt in atlas.index.all("format"):
        hardware = fmt.data.get("format_class") == "hardware"
        for field, which, claims in (("stated_native", "native", fmt.data.get("stated_native", [])),
                                     ("stated_emulated", "emulated", fmt.data.get("stated_emulated", []))):
            for n, claim in enumerate(claims):
                derived = {a for a, t in tallies.items() if fmt.id in getattr(t, which)}
                wrong = [a for a in claim["accelerators"] if not hardware or a not in derived]
                explained = claim.get("explained_by")
                if wrong and not explained:
                    why = (f"{fmt.id!r} is a {fmt.data.get('format_class', 'unclassified')} format, and only hardware "
                           "formats can be native or emulated" if not hardware else
                           f"the accelerators' peak figures and their targets' matrix instructions make {fmt.id!r} {which} on "
                           f"{sorted(derived) or 'no part'}")
                    yield at(fmt, (field, n), NAME,
                             f"the source lists {wrong} as {which}, but {why}; correct the accelerator's peaks, or "
                             f"add `explained_by:` naming a finding that explains the disagreement")
                elif explained and not wrong:
                    yield at(fmt, (field, n, "explained_by"), NAME,
                             f"stale explanation: every accelerator listed is derived {which}; remove explained_by")


CHECK = Check(NAME, __doc__.strip().splitlines()[0], "record:format", run)
