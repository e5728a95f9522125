"""The data API: every document matches its published schema, is deterministic, and says what the site says."""
from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import uuid
import re
from pathlib import Path

import pytest
from markupsafe import Markup
import jsonschema_rs
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from generators.build import check_tree
from generators.derive.order import targets_in_order
from generators.derive.source_links import permalink, source_link
from generators.render.api import API_VERSION, api_files, dump

from .test_cli import run

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def files(real_check) -> dict[str, str]:
    return api_files(real_check[0])


def _schema_for(path: str) -> str:
    if path.startswith("api/records/"):
        return "record.schema.json"
    return path.removeprefix("api/").replace(".json", ".schema.json")


def test_every_document_has_a_version_and_matches_its_schema(files: dict[str, str]) -> None:
    """Every document is checked by jsonschema-rs (a whole pass takes milliseconds, Python's jsonschema seconds); a
    document it rejects is checked again by jsonschema for the messages. Both read the published schemas by address."""
    schemas = {p.removeprefix("api/schema/"): json.loads(t) for p, t in files.items() if p.startswith("api/schema/")}
    documents = {p: json.loads(t) for p, t in files.items() if not p.startswith("api/schema/")}
    assert {"api/index.json", "api/cells.json", "api/format-map.json", "api/records/formats/nvfp4.json"} <= set(documents)
    fast = _fast_validators(schemas)
    registry = _registry(schemas)
    for path, document in documents.items():
        assert document["version"] == API_VERSION, path
        if not fast[_schema_for(path)].is_valid(document):
            schema = schemas[_schema_for(path)]
            slow = Draft202012Validator({**schema, "$id": BASE + _schema_for(path)}, registry=registry)
            assert [e.message for e in slow.iter_errors(document)] == [], path
            pytest.fail(f"{path}: jsonschema-rs rejects what jsonschema accepts")
    for name in ("format.schema.json", "defs.schema.json"):
        assert f"records/{name}" in schemas


def _fast_validators(schemas: dict[str, dict]) -> dict[str, jsonschema_rs.Draft202012Validator]:
    """One jsonschema-rs validator per published schema, references resolved by address as a client's would be."""
    registry = jsonschema_rs.Registry([(BASE + name, {**schema, "$id": BASE + name}) for name, schema in schemas.items()])
    return {name: jsonschema_rs.Draft202012Validator({**schema, "$id": BASE + name}, registry=registry)
            for name, schema in schemas.items()}


def test_the_fast_validator_rejects_what_jsonschema_rejects(files: dict[str, str]) -> None:
    """The fast check above is only as good as its agreement: a broken copy of one document per schema (a field of the
    wrong type at the top, and one deep inside, behind a cross-schema reference) fails both validators alike."""
    schemas = {p.removeprefix("api/schema/"): json.loads(t) for p, t in files.items() if p.startswith("api/schema/")}
    fast, registry = _fast_validators(schemas), _registry(schemas)
    first: dict[str, str] = {}
    for path in sorted(files):
        if not path.startswith("api/schema/"):
            first.setdefault(_schema_for(path), path)
    assert {"record.schema.json", "cells.schema.json", "index.schema.json"} <= set(first)
    for name, path in first.items():
        slow = Draft202012Validator({**schemas[name], "$id": BASE + name}, registry=registry)
        broken = _broken_copies(json.loads(files[path]))
        assert len(broken) == 2, path
        for copy in broken:
            assert not fast[name].is_valid(copy) and not slow.is_valid(copy), (path, copy)


def _broken_copies(document: dict) -> list[dict]:
    """The document with its version a list, and with the first string found deepest in its first nested object or
    array replaced by a list of lists (no schema of ours allows that where it expects a string)."""
    copies = [{**document, "version": [[]]}]
    deep = json.loads(json.dumps(document))
    node, key = deep, None
    for _ in range(8):  # walk down the first nested container of each level
        nested = [(k, v) for k, v in (node.items() if isinstance(node, dict) else enumerate(node))
                  if isinstance(v, (dict, list)) and v]
        if not nested:
            break
        key, node = nested[0]
    strings = [k for k, v in (node.items() if isinstance(node, dict) else enumerate(node)) if isinstance(v, str)]
    if key is not None and strings:
        node[strings[0]] = [[]]
        copies.append(deep)
    return copies


BASE = "https://atlas.invalid/api/schema/"  # where a client fetching the schemas would find them, relative refs and all


def _registry(schemas: dict[str, dict]) -> Registry:
    """The published schemas by address, so a reference between them resolves as it does for a client."""
    return Registry().with_resources((BASE + name, DRAFT202012.create_resource({**schema, "$id": BASE + name}))
                                     for name, schema in schemas.items())


def _undescribed(document: object, schema: dict, at: str = "") -> list[str]:
    """Every object key of a document that its schema's `properties` do not name (a `$ref` or a schema without
    properties, such as a record's free-form `data`, describes what lies below it)."""
    if isinstance(document, list):
        items = schema.get("items", {})
        return [found for n, item in enumerate(document) for found in _undescribed(item, items, f"{at}/{n}")]
    if not isinstance(document, dict) or "$ref" in schema:
        return []
    properties, rest = schema.get("properties"), schema.get("additionalProperties")
    if properties is None and not isinstance(rest, dict):
        return []
    found = []
    for key, value in document.items():
        below = (properties or {}).get(key, rest if isinstance(rest, dict) else None)
        if below is None:
            found.append(f"{at}/{key}")
        else:
            found += _undescribed(value, below, f"{at}/{key}")
    return found


def test_every_field_of_every_document_is_described_by_its_schema(files: dict[str, str]) -> None:
    schemas = {p.removeprefix("api/schema/"): json.loads(t) for p, t in files.items() if p.startswith("api/schema/")}
    for path, text in files.items():
        if not path.startswith("api/schema/"):
            assert _undescribed(json.loads(text), schemas[_schema_for(path)]) == [], path


def test_index_entries_are_held_to_their_kind(files: dict[str, str]) -> None:
    """A field the index adds is declared per kind: a gotcha entry without its effect, or with a field no kind has,
    fails validation (so the schema cannot fall behind api._brief unnoticed)."""
    schemas = {p.removeprefix("api/schema/"): json.loads(t) for p, t in files.items() if p.startswith("api/schema/")}
    validator = Draft202012Validator({**schemas["index.schema.json"], "$id": BASE + "index.schema.json"},
                                     registry=_registry(schemas))
    index = json.loads(files["api/index.json"])
    gotcha = dict(index["records"]["gotcha"][0])
    assert gotcha["effect"] in {"stops", "garbage", "degraded", "misleads"}
    for broken in ({k: v for k, v in gotcha.items() if k != "effect"}, {**gotcha, "effect": "fine"},
                   {**gotcha, "colour": "red"}):
        changed = {**index, "records": {**index["records"], "gotcha": [broken]}}
        assert list(validator.iter_errors(changed)), broken


def test_index_lists_every_record_file(files: dict[str, str]) -> None:
    index = json.loads(files["api/index.json"])
    listed = {f"api/{entry['file']}" for entries in index["records"].values() for entry in entries}
    assert listed == {p for p in files if p.startswith("api/records/")}


def test_output_is_deterministic_and_canonical(files: dict[str, str]) -> None:
    atlas, _ = check_tree(ROOT)
    assert api_files(atlas) == files
    for path in ("api/format-map.json", "api/cells.json", "api/index.json"):
        text = files[path]
        assert text == json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False, indent=2) + "\n", path


@pytest.mark.parametrize("value", [1e-05, 1e16, -0.0, 2**63 - 1, 5e-324, "\u2028</script>é", [[], {}], {"b": 1, "a": [True, None]}])
def test_dump_writes_the_value_it_was_given_in_canonical_form(value: object) -> None:
    text = dump({"x": value})
    assert json.loads(text) == {"x": value} and dump(json.loads(text)) == text
    assert text.startswith('{\n  "x": ')


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_dump_refuses_what_is_not_json(value: float) -> None:
    with pytest.raises(ValueError):
        dump({"figure": value})


class _Plain(enum.Enum):
    A = 1


class _Text(str, enum.Enum):
    A = "a"


@dataclasses.dataclass
class _Row:
    x: int


@pytest.mark.parametrize("value", [
    float("nan"), [1, [2, {"x": -float("inf")}]], (1.5, float("inf")), _Row(1), datetime.date(2026, 1, 1), _Plain.A,
    uuid.UUID(int=1), {"a": [{"b": _Row(2)}]}, Markup("<b>"), _Text.A, (1, 2.5, None, True), {"k": [1, "x", {}]},
    {1: "int key"}, 2**64, {"a": {1, 2}}])
def test_dump_refuses_exactly_what_the_standard_encoder_refuses(value: object) -> None:
    """orjson writes the text; whatever json.dumps(allow_nan=False) refuses, dump refuses too (orjson would write
    dataclasses, dates, enums and UUIDs, and NaN as null)."""
    try:
        expected = json.dumps({"v": value}, sort_keys=True, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError):
        with pytest.raises((TypeError, ValueError)):
            dump({"v": value})
        return
    try:
        text = dump({"v": value})
    except TypeError:  # orjson refuses a few values the standard encoder writes: integer keys, integers beyond 64 bits
        assert value in ({1: "int key"}, 2**64)
        return
    assert json.loads(text) == json.loads(expected)


def test_the_x86_w4a8_cell_carries_the_publishers_cell_and_the_finding(files: dict[str, str]) -> None:
    cells = {(c["scheme"], c["target"]): c for c in json.loads(files["api/cells.json"])["cells"]}
    cell = cells[("vllm-ct-w4a8-int", "x86-cpu-avx512")]
    assert cell["verdict"] not in ("no", "refused")
    [claim] = [p for p in cell["published"] if p["matrix"] == "vllm-quantization-hardware-table"]
    assert claim["agrees"] is False and claim["says"] == "no"
    assert claim["finding"] == "vllm-w4a8-x86-cpu-cell" and cell["findings"] == ["vllm-w4a8-x86-cpu-cell"]
    agreeing = [c for c in cells.values() if c["published"] and all(p["agrees"] for p in c["published"])]
    assert agreeing and all(c["findings"] == [] for c in agreeing)


def test_index_labels_every_target_and_part_without_a_parenthesis_inside_another(files: dict[str, str]) -> None:
    """The selector's titles come from these labels ('NVIDIA A10 — SM 8.6 · Ampere'); a part no target stands for
    names none."""
    records = json.loads(files["api/index.json"])["records"]
    targets = {t["id"]: t for t in records["hardware-target"]}
    parts = {a["id"]: a for a in records["accelerator"]}
    assert parts["a10"]["target"] == "nvidia-sm86" and parts["a10"]["target_label"] == "SM 8.6 · Ampere"
    assert targets["nvidia-sm86"]["label"] == "NVIDIA SM 8.6 · Ampere"
    members = {a for t in targets.values() for a in t["accelerators"]}
    assert {a for a, e in parts.items() if "target" in e} == members
    labels = [t["label"] for t in targets.values()] + [f"{e['name']} — {e['target_label']}" for e in parts.values() if "target" in e]
    nested = [label for label in labels if re.search(r"\([^)]*\(", label)]
    assert len(labels) > 40 and nested == []


def test_record_documents_carry_derived_views_and_backlinks(files: dict[str, str]) -> None:
    h100 = json.loads(files["api/records/accelerators/h100-sxm.json"])
    assert "fp8-e4m3" in h100["derived"]["native_formats"] and "nvidia-sm90" in h100["derived"]["hardware_targets"]
    assert h100["data"]["vendor"] == "NVIDIA" and h100["backlinks"]
    source = json.loads(files["api/records/sources/vllm-src-ct-w4a8-int.json"])
    assert source["derived"]["link"].startswith("https://github.com/vllm-project/vllm/blob/v0.33.0/")


def test_cells_json_is_what_the_command_line_prints_and_build_writes_it(tree: Path, tmp_path: Path) -> None:
    printed = run(tree, "cells", "--format", "json").stdout
    out = tmp_path / "out"
    assert run(tree, "build", "--out", str(out)).returncode == 0
    assert (out / "api/cells.json").read_text(encoding="utf-8") == printed
    assert (out / "api/index.json").is_file() and (out / "api/schema/cells.schema.json").is_file()


@pytest.mark.parametrize("source, expected", [
    ({"type": "code", "repository": "o/r", "path": "a/b.py", "revision": "0123abcd", "url": "https://x.org/"},
     "https://github.com/o/r/blob/0123abcd/a/b.py"),
    ({"type": "code", "repository": "o/r", "path": "a b.py", "revision": "v0.33.0"}, "https://github.com/o/r/blob/v0.33.0/a%20b.py"),
    ({"type": "docs", "repository": "o/r", "path": "README.md", "revision": "rendered page; commit not exposed",
      "url": "https://x.org/doc"}, "https://x.org/doc"),
    ({"type": "seed", "path": "seeds/x.md"}, None),
    ({"type": "code", "repository": "o/r", "package": "mlx-cuda-12==0.32.4", "path": "mlx/lib/libmlx.so",
      "revision": "v0.32.4"}, "https://pypi.org/project/mlx-cuda-12/0.32.4/"),
    ({"type": "code", "repository": "o/r", "package": "vllm==0.33.0", "path": "vllm-0.33.0.dist-info/METADATA",
      "revision": "v0.33.0", "url": "https://pypi.org/project/vllm/0.33.0/#files"}, "https://pypi.org/project/vllm/0.33.0/#files"),
    ({"type": "code", "repository": "o/r", "package": "transformers==5.25.0", "path": "PKG-INFO", "revision": "v5.25.0"},
     "https://pypi.org/project/transformers/5.25.0/"),
    ({"type": "code", "repository": "o/r", "path": "csrc/ops.cu; csrc/compat.cuh", "revision": "37d2a93"},
     "https://github.com/o/r/tree/37d2a93"),
    ({"type": "code", "repository": "o/r", "package": "torch==2.14.0", "revision": "v2.14.0",
      "path": "torch/lib/libtorch_cuda.so; torch/cuda/__init__.py", "url": "https://pypi.org/project/torch/2.14.0/#files"},
     "https://pypi.org/project/torch/2.14.0/#files"),
    ({"type": "code", "repository": "o/r", "package": "mlx-metal==0.32.4", "path": "mlx/lib/mlx.metallib",
      "revision": "v0.32.4"}, "https://pypi.org/project/mlx-metal/0.32.4/"),
    ({"type": "code", "repository": "o/r", "package": "torch==2.14.0", "revision": "v2.14.0",
      "path": "torch/include/ATen/ops/_dyn_quant_matmul_4bit_cpu_dispatch.h"}, "https://pypi.org/project/torch/2.14.0/"),
    ({"type": "code", "repository": "o/r", "package": "vllm==0.33.0", "path": "vllm/third_party/deep_gemm/",
      "revision": "v0.33.0"}, "https://pypi.org/project/vllm/0.33.0/"),
    ({"type": "code", "repository": "o/r", "package": "torch==2.13.0+cpu", "path": "torch.finfo (c10 float8 types)",
      "revision": "v2.13.0"}, "https://pypi.org/project/torch/2.13.0/"),
    ({"type": "code", "repository": "o/r", "package": "vllm==0.33.0", "path": "vllm/third_party/pynvml.py",
      "revision": "v0.33.0"}, "https://github.com/o/r/blob/v0.33.0/vllm/third_party/pynvml.py"),
    ({"type": "code", "repository": "o/r", "package": "vllm==0.24.0", "path": ".", "revision": "v0.24.0"},
     "https://github.com/o/r/tree/v0.24.0"),
])
def test_source_links(source: dict, expected: str | None) -> None:
    assert source_link(source) == expected


def test_no_permalink_without_a_revision_that_names_a_commit_or_tag() -> None:
    assert permalink({"repository": "o/r", "path": "p", "revision": "main (raw copy; commit hash not exposed)"}) is None


def test_every_api_document_is_documented() -> None:
    from generators.render.api_schemas import SCHEMAS
    page = (ROOT / "docs/data-api.md").read_text(encoding="utf-8")
    for name in SCHEMAS:
        assert f"api/schema/{name}" in page, f"{name} is not documented on docs/data-api.md"


def test_record_pages_link_every_cited_source_that_has_an_address(real_atlas) -> None:
    from generators.render.pages import names_of, record_page
    atlas = real_atlas
    names = names_of(atlas)
    finding = record_page(atlas, atlas.index.get("finding", "vllm-w4a8-x86-cpu-cell"), names)
    linked = [s for s in finding.sources if 'href="https://' in s]
    assert linked and all("checked 20" in s for s in linked)
    code = record_page(atlas, atlas.index.get("source", "vllm-src-ct-w4a8-int"), names)
    [table] = [t for t in code.tables if t.title == "Where to read it"]
    assert 'href="https://github.com/vllm-project/vllm/blob/v0.33.0/' in table.rows[0][0]


def test_index_orders_hardware_targets_from_one_computation_of_the_order(real_check, monkeypatch) -> None:
    """Each hardware target's `order` is its place in the support tables' columns, and the order is computed once per
    document, not once per target (that was quadratic in the number of targets)."""
    import generators.render.api as api
    calls = []

    def counted(index):
        calls.append(index)
        return targets_in_order(index)

    monkeypatch.setattr(api, "targets_in_order", counted)
    targets = api.index_document(real_check[0])["records"]["hardware-target"]
    assert len(calls) == 1 and len(targets) > 10
    expected = [t.id for t in targets_in_order(real_check[0].index)]
    assert sorted(targets, key=lambda t: t["order"]) == sorted(targets, key=lambda t: expected.index(t["id"]))
    assert sorted(t["order"] for t in targets) == list(range(len(targets)))


def test_every_runs_if_cell_says_what_runs_when_its_conditions_do_not_hold(files: dict[str, str]) -> None:
    """`otherwise` is derived from the candidate walk: each runs-if cell has it, its first step concerns the cell's own
    kernel, a step that still runs under conditions is followed by a step for that kernel, and a refusal lists reasons."""
    cells = {(c["scheme"], c["target"]): c for c in json.loads(files["api/cells.json"])["cells"]}
    runs_if = [c for c in cells.values() if c["verdict"] == "runs-if"]
    assert runs_if and all(c["otherwise"] for c in runs_if)
    for cell in cells.values():
        steps = cell["otherwise"]
        assert not steps or cell["otherwise"][0]["kernel"] == cell["kernel"] or ", vLLM uses " in steps[0]["unmet"][0]
        assert all(s["reasons"] and s["failure_message"] for s in steps if s["verdict"] == "refused")
        if cell["verdict"] == "refused" or (cell["verdict"] == "fails-at-runtime" and not cell["conditions"]):
            assert steps == [], (cell["scheme"], cell["target"])
        if cell["verdict"] == "runs":  # conditions choose among kernels that all run, or the default install meets them
            assert bool(steps) == bool(cell["conditions"]), (cell["scheme"], cell["target"])
            assert all(s["verdict"] in ("runs", "runs-if") for s in steps if not s["off_default"])
        assert all(s["off_default"] for s in steps) <= bool(cell["assumes"]) or not steps
    # B200 NVFP4: FlashInfer when usable (pip alone does not guarantee it), else CUTLASS NVFP4, which the PyPI wheel
    # carries; only an install without those kernels reaches the weight-only fallbacks. Each W4A4 kernel quantizes
    # its input with scaled_fp4_quant, which takes float16 or bfloat16 only: a float32 model (only an explicit --dtype
    # float32 gives one here) fails at run time.
    b200 = cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm100")]
    walk = [(s["selected"], s["off_default"]) for s in b200["otherwise"] if s["verdict"] != "fails-at-runtime"]
    assert b200["verdict"] == "runs" and walk[:3] == [
        ("vllm-flashinfer-cutlass-nvfp4", False), ("vllm-cutlass-nvfp4", False), ("vllm-flashinfer-cutedsl-nvfp4-w4a16", True)]
    assert "activation dtype in {float16, bfloat16}" in b200["conditions"]  # met by --dtype auto: assumed
    assert any("--dtype auto" in a["install"] for a in b200["assumes"])
    assert [s["selected"] for s in b200["otherwise"] if s["verdict"] == "fails-at-runtime"][:4] == [
        "vllm-flashinfer-cutedsl-nvfp4", "vllm-flashinfer-cutedsl-nvfp4", "vllm-flashinfer-cutlass-nvfp4", "vllm-cutlass-nvfp4"]
    # CuTe-DSL also stops without the NVFP4 quantization kernel the wheel carries (scaled_fp4_quant): off the defaults
    [op_step] = [s for s in b200["otherwise"] if s["unmet"][0].startswith("vLLM built with its NVFP4 activation")]
    assert (op_step["verdict"], op_step["selected"], op_step["off_default"]) == ("fails-at-runtime", "vllm-flashinfer-cutedsl-nvfp4", True)
    assert any("CUDA 13.0" in a["install"] for a in b200["assumes"])
    # Hopper GPTQ: Machete when the group size fits, else Humming when installed, else Marlin: runs whichever way.
    hopper = cells[("vllm-gptq-marlin", "nvidia-sm90")]
    assert hopper["verdict"] == "runs" and hopper["kernel"] == "vllm-machete"
    assert [(s["verdict"], s["selected"]) for s in hopper["otherwise"]] == [("runs-if", "vllm-humming"), ("runs", "vllm-marlin")]
    # The audit's example: without zentorch vLLM goes on to CPUWNA16 (which runs with a 16-bit model); zentorch with a
    # bfloat16 model and VLLM_CPU_INT4_W4A8 at its default keeps the kernel but computes W4A8; a float32 model fails in
    # CPUWNA16's cpu_gemm_wna16, which has no float32 case (fifth vLLM cell audit).
    zen = cells[("vllm-ct-wna16", "x86-cpu-avx512")]["otherwise"]
    assert [(s["kernel"], s["verdict"], s["selected"]) for s in zen] == [
        ("vllm-zentorch-wna16", "runs-if", "vllm-cpu-wna16"), ("vllm-zentorch-wna16", "fallback", "vllm-zentorch-wna16"),
        ("vllm-cpu-wna16", "fails-at-runtime", "vllm-cpu-wna16")]
    assert "package zentorch installed" in zen[0]["unmet"] and zen[1]["computes_as"].startswith("W4A8")
    # A kernel selected where a package is usable and then failing: the default install lacks the package, so vLLM
    # goes on to Marlin (its own selection, observed by the verify harness, shows both routes), which computes
    # weight-only with a bfloat16 model and fails with another; an install that adds the package fails instead.
    # --linear-backend humming leaves Humming, which runs W4A4 there: the cell runs only given it, and the unset
    # setting's step is followed by the default walk's own (vllmset31).
    sm120 = cells[("vllm-ct-w4a4-mxfp4", "nvidia-sm120")]
    assert (sm120["verdict"], sm120["kernel"], sm120["default_kernel"]) == ("runs-if", "vllm-humming-mxfp4", "vllm-marlin-mxfp4")
    assert [(s["verdict"], s["selected"], s["off_default"]) for s in sm120["otherwise"]][:3] == [
        ("fallback", "vllm-marlin-mxfp4", False), ("fails-at-runtime", "vllm-flashinfer-mxfp4", True),
        ("fails-at-runtime", "vllm-marlin-mxfp4", False)]
    assert "float32" not in sm120["otherwise"][0]["computes_as"]


def test_the_index_says_which_records_no_primary_source_backs_and_why(files: dict[str, str], real_check) -> None:
    index = json.loads(files["api/index.json"])
    said = {f"{kind}/{e['id']}": e["unverified"] for kind, entries in index["records"].items() for e in entries
            if "unverified" in e}
    expected = {u.record: u.reason for u in real_check[0].views.gaps.unverified}
    assert said == expected


def test_the_index_says_which_sources_were_read_at_a_development_commit_and_which_platforms_a_scheme_left_unread(
        files: dict[str, str], real_check) -> None:
    """The answer card says "read at commit X on the main branch" from a source's branch and revision (and at which
    commit a step marked inferred was read from any source's revision), and explains a missing cell on an unread
    platform from the scheme's `unread`: both must reach the index exactly as the records say."""
    records = json.loads(files["api/index.json"])["records"]
    index = real_check[0].index
    for entry in records["source"]:
        data = index.must("source", entry["id"]).data
        if data.get("branch"):
            assert (entry["branch"], entry["revision"]) == (data["branch"], data["revision"])
        else:
            assert "branch" not in entry and entry.get("revision") == data.get("revision")
    branched = {e["id"] for e in records["source"] if "branch" in e}
    assert "onnxruntime-src-cpu-matmul-nbits-001d12d" in branched
    assert "onnxruntime-src-matmul-nbits-quantizer-1-32-0" not in branched  # read at the release: the card's old words
    for entry in records["scheme"]:
        unread = {c["platform"]: c["unread"] for c in index.must("scheme", entry["id"]).data.get("candidates", [])
                  if "unread" in c}
        assert entry.get("unread", {}) == unread
    ort = {e["id"]: e for e in records["scheme"]}["onnxruntime-matmulnbits-int4"]
    assert set(ort["unread"]) == {"rocm", "xpu", "metal"}  # CUDA derived since finding ortgpu32-audit-2026-12-04


def test_a_gate_the_engine_tests_after_packages_is_said_to_come_second(files: dict[str, str]) -> None:
    """A cell's `gate` is not what a default install sees where the engine tests packages first (the gate's
    `after_installs`, transformers' FBGEMM FP8 on GPUs below 9.0): the field's description says so, and points at the
    reasons that come before it. The cells are found in the API's data, not typed (finding gate40s)."""
    from generators.render.api_schemas import SCHEMAS
    cells = json.loads(files["api/cells.json"])["cells"]
    later = [c for c in cells if c.get("gate") and len(c["reasons"]) > 1 and c["reasons"][-1].endswith(c["gate"])
             and not c["reasons"][0].endswith(c["gate"])]
    described = SCHEMAS["cells.schema.json"]["properties"]["cells"]["items"]["properties"]["gate"]["description"]
    assert later and "after_installs" in described and "only once they are installed" in described


# the objects whose every field the code writes on every entry (null or empty where it has none): cell_entry and
# Cell.as_dict, Attempt, Otherwise, Assumed, Worse, ComputeStep, history_entry, format_map_document and _run
_ALWAYS_WRITTEN = {
    "cells.schema.json": ("cells", "cells/attempts", "cells/otherwise", "cells/assumes", "cells/opt_in", "cells/worse",
                          "cells/computes_steps", "cells/history/outcomes"),
    "format-map.schema.json": ("accelerators", "formats/runs_on")}


def _objects_at(document: dict, schema: dict, path: str) -> tuple[list[dict], dict]:
    """The objects a slash path reaches (through every list on the way), with the schema of one."""
    found: list = [document]
    for key in path.split("/"):
        schema = schema["properties"][key]
        found = [value[key] for value in found]
        if schema.get("type") == "array":
            schema = schema["items"]
            found = [item for items in found for item in items]
    return found, schema


def test_every_field_the_code_always_writes_is_required(files: dict[str, str]) -> None:
    """A client can rely only on what a schema requires: where the code writes a field on every entry, the schema
    requires it, so a document that drops one is caught (the cells schema once required 11 of a cell's 33 fields)."""
    schemas = {p.removeprefix("api/schema/"): json.loads(t) for p, t in files.items() if p.startswith("api/schema/")}
    for name, paths in _ALWAYS_WRITTEN.items():
        document = json.loads(files["api/" + name.replace(".schema.json", ".json")])
        for path in paths:
            objects, schema = _objects_at(document, schemas[name], path)
            assert objects, (name, path)
            assert {key for obj in objects for key in obj} == set(schema["required"]), (name, path)


def test_runs_on_names_every_verdict_it_holds(files: dict[str, str]) -> None:
    """`runs_on` holds every cell that loads, fallbacks too: its description names each verdict found in it, so a
    client reading the name as "runs" is told otherwise."""
    schema = json.loads(files["api/schema/format-map.schema.json"])
    described = schema["properties"]["formats"]["items"]["properties"]["runs_on"]["description"]
    verdicts = {run["verdict"] for f in json.loads(files["api/format-map.json"])["formats"] for run in f["runs_on"]}
    assert "fallback" in verdicts
    assert [v for v in sorted(verdicts) if f"`{v}`" not in described] == []


def test_a_record_documents_derived_views_are_checked(files: dict[str, str]) -> None:
    """`derived` was a bare object: a view under another name, or a cell without its verdict, passed."""
    schemas = {p.removeprefix("api/schema/"): json.loads(t) for p, t in files.items() if p.startswith("api/schema/")}
    record = _fast_validators(schemas)["record.schema.json"]
    nvfp4 = json.loads(files["api/records/formats/nvfp4.json"])
    assert record.is_valid(nvfp4) and nvfp4["derived"]["runs_on"]
    assert not record.is_valid({**nvfp4, "derived": {"runs": nvfp4["derived"]["runs_on"]}})
    unjudged = [{key: value for key, value in run.items() if key != "verdict"} for run in nvfp4["derived"]["runs_on"]]
    assert not record.is_valid({**nvfp4, "derived": {"runs_on": unjudged}})
