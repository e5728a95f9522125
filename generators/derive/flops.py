"""The FLOP map: precision ratios and FLOP:byte ridge points from accelerator records.

Dense and sparse figures are never mixed. A precision ratio is computed only between two
figures from the same source with the same accumulate precision, so that no ratio silently
divides one source's figure by another's (or one accumulate precision's rate by the other's).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model.index import Index
from ..model.fields import AcceleratorFields, AcceleratorPeakCompute


@dataclass(frozen=True)
class Ratio:
    """A part's dense peak in one precision over its dense peak in another (`versus`)."""

    accelerator: str
    precision: str
    versus: str
    ratio: float
    source: str
    accumulate: str
    unverified: bool = False  # either figure has no primary source (its record says why)


@dataclass(frozen=True)
class Ridge:
    """FLOP per byte at which a part turns from bandwidth-bound to compute-bound, for one precision."""

    accelerator: str
    precision: str
    tflops: float
    bandwidth_gbs: float
    flop_per_byte: float
    compute_source: str
    bandwidth_source: str
    accumulate: str
    estimate: bool
    # why no primary source states the compute figure, and the bandwidth figure (each record's reason); empty where one
    # does: the pairings table marks the figure itself, as chapter 01 marks a part's figures
    compute_unverified: str = ""
    bandwidth_unverified: str = ""

    @property
    def unverified(self) -> bool:
        """The compute or the bandwidth figure has no primary source."""
        return bool(self.compute_unverified or self.bandwidth_unverified)


def dense(accelerator: AcceleratorFields) -> list[AcceleratorPeakCompute]:
    return [p for p in accelerator.get("peak_compute", []) if p["sparsity"] == "dense"]


def derive_ratios(index: Index, versus: str = "bf16") -> list[Ratio]:
    ratios = []
    for record in index.all("accelerator"):
        figures = dense(record.data)
        for base in (p for p in figures if p["precision"] == versus):
            for other in figures:
                if other is base or other["precision"] == versus:
                    continue
                if other["source"] == base["source"] and other.get("accumulate") == base.get("accumulate"):
                    ratios.append(Ratio(record.id, other["precision"], versus, round(other["tflops"] / base["tflops"], 2),
                                        base["source"], base.get("accumulate", ""),
                                        "unverified" in other or "unverified" in base))
    return sorted(ratios, key=lambda r: (r.accelerator, r.precision, r.source, r.accumulate))


def derive_ridges(index: Index) -> list[Ridge]:
    ridges = []
    for record in index.all("accelerator"):
        for figure in dense(record.data):
            for bandwidth in record.data.get("memory_bandwidth_gbs", []):
                ridges.append(Ridge(record.id, figure["precision"], figure["tflops"], bandwidth["value"],
                                    round(figure["tflops"] * 1000 / bandwidth["value"], 1), figure["source"],
                                    bandwidth["source"], figure.get("accumulate", ""),
                                    bool(figure.get("estimate") or bandwidth.get("estimate")),
                                    figure.get("unverified", ""), bandwidth.get("unverified", "")))
    return sorted(ridges, key=lambda r: (r.accelerator, r.precision, r.compute_source, r.bandwidth_source, r.accumulate, r.tflops))
