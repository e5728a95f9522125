"""A scheme's candidate kernels belong to the scheme's engine, or to the engine its engine runs the kernels of
(`kernels_from` on the engine record: ONNX Runtime GenAI's models run on ONNX Runtime's operators), no platform has
two candidate lists, and each value the scheme's models carry for a kernel setting (`config.setting_values`) names a
setting of a candidate kernel and a value that setting takes, once per setting (the answers take one value)."""
from __future__ import annotations

from collections.abc import Iterator

from ..derive.candidate_lists import resolved_scheme
from ..derive.engine_stated import engine_data
from ..model.atlas import Atlas
from ..model.fields import SchemeFields
from ..model.records import Record
from ..problems import Problem
from .base import SHAPE, Check, at

NAME = "scheme-candidates"


def kernel_engines(atlas: Atlas, engine_id: str) -> tuple[str, ...]:
    """The engines whose kernels a scheme of `engine_id` may list: its own, and the one its `kernels_from` names."""
    engine = atlas.index.get("engine", engine_id)
    relation = engine.data.get("kernels_from") if engine is not None else None
    runs_on = relation["engine"] if relation else None
    return (engine_id, runs_on) if runs_on and runs_on != engine_id else (engine_id,)


def check(atlas: Atlas, scheme: Record) -> Iterator[Problem]:
    seen: dict[str, int] = {}
    allowed = kernel_engines(atlas, scheme.data["engine"])
    resolved = _resolved(atlas, scheme)  # a named list's kernels are its engine's list's
    for n, candidates in enumerate(resolved["candidates"]):
        platform = candidates["platform"]
        if platform in seen:
            yield at(scheme, ("candidates", n, "platform"), NAME,
                     f"platform {platform!r} already has a candidate list at candidates[{seen[platform]}]")
        seen.setdefault(platform, n)
        for k, kernel_id in enumerate(candidates.get("kernels", [])):
            kernel = atlas.index.get("kernel", kernel_id)
            owner = kernel.data.get("engine") if kernel is not None else None
            if owner is not None and owner not in allowed:
                also = f" nor {allowed[1]!r}, whose kernels it runs" if len(allowed) > 1 else ""
                where = ("candidates", n, "list") if "list" in scheme.data["candidates"][n] else ("candidates", n, "kernels", k)
                yield at(scheme, where, NAME,
                         f"kernel {kernel_id!r} belongs to engine {owner!r}, not {scheme.data['engine']!r}{also}; if "
                         f"{scheme.data['engine']!r} runs the kernels of {owner!r}, say so once with `kernels_from` on "
                         f"its engine record")

    yield from _setting_values(atlas, scheme, resolved)


def _resolved(atlas: Atlas, scheme: Record) -> SchemeFields:
    return resolved_scheme(scheme.id, scheme.data, engine_data(atlas.index, scheme.data["engine"]))


def _setting_values(atlas: Atlas, scheme: Record, resolved: SchemeFields) -> Iterator[Problem]:
    settings: dict[str, list[object]] = {}
    for candidates in resolved["candidates"]:
        for kernel_id in candidates.get("kernels", []):
            kernel = atlas.index.get("kernel", kernel_id)
            stated = kernel.data.get("computes_in") if kernel is not None else None
            setting = stated.get("setting") if stated else None
            if setting:
                settings.setdefault(setting["name"], []).extend([setting["default"], *setting["values"]])
    first: dict[str, int] = {}
    for n, carried in enumerate(scheme.data["config"].get("setting_values", [])):
        name, value = carried["setting"], carried["value"]
        if name in first:
            yield at(scheme, ("config", "setting_values", n, "setting"), NAME,
                     f"{name} already has the value its models carry at config.setting_values[{first[name]}]; a "
                     f"setting carries one value")
            continue
        first[name] = n
        if name not in settings:
            yield at(scheme, ("config", "setting_values", n, "setting"), NAME,
                     f"no candidate kernel has a computes_in.setting named {name!r}"
                     + (f" (they have {', '.join(sorted(settings))})" if settings else ""))
        elif value not in settings[name]:
            yield at(scheme, ("config", "setting_values", n, "value"), NAME,
                     f"{name} takes {', '.join(dict.fromkeys(str(v) for v in settings[name]))} on the candidate "
                     f"kernels, not {value!r}")


CHECK = Check(NAME, __doc__.strip(), "record:scheme", check_record=check, stage=SHAPE)
