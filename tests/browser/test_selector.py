"""The "Can I run it?" page: the answer card for a pick says what api/cells.json says, and the pick is in the URL."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import yaml
from selenium.webdriver.common.keys import Keys

from generators.derive.wording import WORDS

from .conftest import DESKTOP, PHONE, Browser

PAGE = "can-i-run-it/"
RECORDS = Path(__file__).resolve().parents[2] / "records"
CARD = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card) return null;
const texts = sel => [...card.querySelectorAll(sel)].map(e => e.textContent.trim());
return {verdict: card.dataset.verdict, title: card.querySelector('h2').textContent,
        kernel: ([...card.querySelectorAll('dt')].find(dt => dt.textContent === 'Kernel')?.nextElementSibling
                 .querySelector('a')?.textContent.trim()) || null, findings: [...card.querySelectorAll('.atlas-finding-link')].map(a => a.pathname),
        traps: [...card.querySelectorAll('.atlas-card__traps a:not(.atlas-contest-mark)')].map(a => a.pathname),
        blockers: [...card.querySelectorAll('.atlas-card__blocker a')].map(a => a.pathname),
        blockerLine: card.querySelector('.atlas-card__blocker')?.textContent || '',
        trapWhen: texts('.atlas-card__trap-when'),
        afterVerdict: card.querySelector('.atlas-card__verdict').nextElementSibling.className,
        verdictLine: card.querySelector('.atlas-card__verdict').textContent,
        verdictClass: card.querySelector('.atlas-card__verdict span').className,
        engineTraps: [...card.querySelectorAll('.atlas-card__engine-traps a:not(.atlas-contest-mark)')].map(a => a.pathname),
        facts: Object.fromEntries([...card.querySelectorAll('dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent])),
        sources: [...card.querySelectorAll('.atlas-card__sources a')].map(a => a.href),
        agrees: card.querySelector('.atlas-card__agrees')?.textContent || '',
        whyNot: [...card.querySelectorAll('.atlas-card__why-not li')].map(li => [li.querySelector('a')?.pathname, li.textContent])};
"""


@pytest.fixture(scope="module")
def cells(built_site: Path) -> dict[tuple[str, str], dict]:
    document = json.loads((built_site / "api/cells.json").read_text(encoding="utf-8"))
    return {(c["scheme"], c["target"]): c for c in document["cells"]}


@pytest.fixture(scope="module")
def names(built_site: Path) -> dict[str, str]:
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    return {f"{kind}/{e['id']}": e["name"] for kind, entries in index["records"].items() for e in entries}


@pytest.fixture(scope="module")
def computed_in(built_site: Path) -> dict[str, str]:
    """Each format as a cell computing in it says so: the API index's precision_label ("FP8 E4M3"), not its name."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    return {e["id"]: e["precision_label"] for e in index["records"]["format"]}


@pytest.fixture(scope="module")
def engine_wide(built_site: Path) -> dict[str, list[str]]:
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    return {e["id"]: e["engine_wide_traps"] for e in index["records"]["engine"]}


def _shown(browser: Browser, script: str, what: str) -> dict:
    """What the script reads off the answer, once the page has drawn it: within 20 s (the page fetches and parses its
    index and the picked target's cells first, and a pick of another target fetches that target's cells; the whole API,
    which it once read, took over 5 s once at a load of 5 on two cores; an answer drawn returns at once, so only a
    failure waits that long)."""
    deadline = time.monotonic() + 20
    found = None
    while found is None and time.monotonic() < deadline:
        found = browser.js(script)
        if found is None:
            time.sleep(0.05)
    assert found is not None, f"no {what}"
    return found


def _card(browser: Browser) -> dict:
    return _shown(browser, CARD, "answer card")


PICK = """const [id, value] = arguments; const s = document.querySelector('#atlas-' + id);
s.value = value; if (s.value !== value) return false; s.dispatchEvent(new Event('change')); return true;"""


def _pick(browser: Browser, **picks: str) -> None:
    """Change picks through the page's own lists, in the order given, each firing the change a reader's pick fires (the
    page draws the answer for it at once where it has loaded the target's cells, else once it has fetched them): a test
    reads several answers from one load of the page. The URL must then name the picks, as after a load; the helper
    returns once the answer for the last pick is drawn (the answer is no longer marked busy)."""
    for select, value in picks.items():
        # right after a load the page may still be filling its lists from the data it fetches: wait for the option
        deadline = time.monotonic() + 20
        while not browser.js(PICK, select, value) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert browser.js(f"return document.querySelector('#atlas-{select}').value") == value, \
            f"the {select} list has no {value!r}"
    _shown(browser, "return document.querySelector('#atlas-answer').hasAttribute('aria-busy') ? null : true",
           "answer drawn for the picks")
    query = _query(browser)
    assert all(query.get("format" if v.startswith("format:") else k) == [v.removeprefix("format:")]
               for k, v in picks.items()), query


def _query(browser: Browser) -> dict[str, list[str]]:
    return parse_qs(urlsplit(browser.driver.current_url).query)


CARD_CASES = [  # (scheme, hardware, target), each read against api/cells.json
    ("vllm-ct-w4a8-int", "part:amd-epyc-genoa", "x86-cpu-avx512"),
    ("vllm-ct-w4a8-int", "part:h100-sxm", "nvidia-sm90"),
    ("vllm-ct-w8a8-fp8", "part:v100", "nvidia-sm70"),
    ("vllm-gptq-marlin", "target:amd-gfx1151", "amd-gfx1151"),
    ("vllm-ct-w8a8-fp8", "part:mi300x", "amd-gfx942"),
]


def test_the_card_says_what_the_cells_say(browser: Browser, cells: dict, names: dict) -> None:
    """The first case is opened by its link; each next one is picked in the page's lists (the second, W4A8 on an H100,
    by changing the hardware alone: the card and the URL follow the change)."""
    scheme, hardware, _ = CARD_CASES[0]
    browser.open(f"{PAGE}?engine=vllm&scheme={scheme}&hardware={hardware}")
    card = _card(browser)
    _the_w4a8_card_on_x86_runs_and_says_the_vllm_table_disagrees(browser, card)
    for n, (scheme, hardware, target) in enumerate(CARD_CASES):
        if n:
            _pick(browser, **({"hardware": hardware} if scheme == CARD_CASES[n - 1][0] else
                              {"scheme": scheme, "hardware": hardware}))
            card = _card(browser)
            assert _query(browser) == {"engine": ["vllm"], "scheme": [scheme], "hardware": [hardware]}
        _says_what_the_cell_says(card, cells[(scheme, target)], names, scheme)
    assert browser.console_errors() == []


def _lead_kernel(cell: dict) -> str:
    """The kernel a card or a compare row names first: the one a default install selects where the cell's own needs an
    opt-in (derive/default_lead.py), else the cell's."""
    loads = cell["verdict"] in ("runs", "runs-if", "fallback")
    return cell["default_kernel"] if loads and cell["default_kernel"] and cell["default_kernel"] != cell["kernel"] else cell["kernel"]


def _says_what_the_cell_says(card: dict, cell: dict, names: dict, scheme: str) -> None:
    assert card["verdict"] == cell["verdict"]
    assert names[f"scheme/{scheme}"] in card["title"]
    assert card["kernel"] == (names[f"kernel/{_lead_kernel(cell)}"] if cell["kernel"] else None)
    # a cell the engine's own selection agreed with names that run (the observation) as where it is known from
    assert all(names[f"observation/{o}"] in card["facts"]["Known from"] for o in cell["evidence"])
    assert card["facts"]["Covers"].startswith("the scheme's dense linear layers; the expert layers of a mixture-of-experts")
    assert card["findings"] == [f"/findings/{f}/" for f in cell["findings"]]
    assert card["traps"] == [f"/gotchas/{t}/" for t in cell["traps"]]
    tried = [a for a in cell["attempts"] if a["reason"]]
    if card["whyNot"] and [f"{a['kernel']}: {a['reason']}" for a in tried] == cell["reasons"]:
        # every candidate's reason after its kernel's name, linked to the kernel's page
        assert card["whyNot"] == [[f"/kernels/{a['kernel']}/", f"{names['kernel/' + a['kernel']]}: {a['reason']}"] for a in tried]
    agreeing = [p for p in cell["published"] if p["agrees"]]  # each with the publisher's symbol and its reading
    assert all(f"({p['symbol']} {p['says']})" in card["agrees"] for p in agreeing) and bool(agreeing) == bool(card["agrees"])
    assert len(card["sources"]) >= len(cell["sources"]) and all(s.startswith(("http://127.0.0.1", "https://")) for s in card["sources"])


def test_awq_on_an_a10_lists_no_unrelated_trap_and_computes_in_a_precision(browser: Browser, built_site: Path,
                                                                            cells: dict, names: dict, computed_in: dict,
                                                                            engine_wide: dict) -> None:
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-awq-marlin&hardware=part:a10")
    card = _card(browser)
    cell = cells[("vllm-awq-marlin", "nvidia-sm86")]
    # the traps that apply are about AWQ experts under Marlin MoE and GPTQ/AWQ group sizes, not a W4A8 one
    applying = ["vllm-marlin-moe-input-dtype-mismatched-expert-weights", "gptq-group-size-kernel-eligibility"]
    assert card["traps"] == [f"/gotchas/{t}/" for t in applying]
    assert cell["traps"] == applying
    assert card["facts"]["Computes in"] == " or ".join(computed_in[f] for f in cell["computes_in"])
    assert "AWQ" not in card["facts"]["Computes in"]
    assert card["title"] == names["scheme/vllm-awq-marlin"] + " on NVIDIA A10 — SM 8.6 · Ampere"  # no '(… (Ampere))'
    # traps naming only vLLM are on no cell; the card shows them under their own heading
    assert card["engineTraps"] == [f"/gotchas/{t}/" for t in engine_wide["vllm"]] != []
    browser.screenshot("selector-awq-a10-1440")
    _the_page_names_the_engines_it_cannot_answer_for(browser, built_site)  # on the same page


ENGINE_TRAP_MARKS = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card || !card.querySelector('.atlas-card__engine-traps')) return null;
return Object.fromEntries([...card.querySelectorAll('.atlas-card__engine-traps li')].map(li => [
  li.querySelector('a').pathname.split('/')[2],
  [...li.querySelectorAll('.atlas-contest-mark')].map(a => [a.textContent, a.pathname, a.hash])]));
"""


def test_a_trap_with_an_open_contest_is_marked_contested_and_links_to_it(browser: Browser, engine_wide: dict) -> None:
    """The MTP plus prefix-caching trap's 'whether vLLM 0.33.0 is affected' is an open contest: the card listed the
    trap like any other, so a reader took it as asserted. A trap whose record holds a contest no finding settled (no
    `upheld`, read from the record here) now carries 'contested', linking to that contest's heading on its page; a trap
    with none, or only settled ones, carries nothing."""
    def open_contests(trap: str) -> list[int]:
        data = yaml.safe_load((RECORDS / "gotchas" / f"{trap}.yaml").read_text(encoding="utf-8"))
        return [n for n, entry in enumerate(data.get("contested", [])) if "upheld" not in entry]
    mtp = "mtp-spec-decode-prefix-caching-accuracy-loss"
    assert mtp in engine_wide["vllm"] and open_contests(mtp)
    plain = [t for t in engine_wide["vllm"] if not open_contests(t)]
    assert plain
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-awq-marlin&hardware=part:a10")
    marks = _shown(browser, ENGINE_TRAP_MARKS, "engine-wide traps")
    assert marks[mtp] == [[WORDS["trap_contested"], f"/gotchas/{mtp}/", f"#contest-{open_contests(mtp)[0]}"]]
    assert all(marks[t] == [] for t in plain)
    browser.screenshot("selector-contested-trap-1280")
    # the link lands on the contest's heading, which says it is unresolved
    browser.js("document.querySelector('.atlas-card__engine-traps .atlas-contest-mark').click()")
    deadline = time.monotonic() + 10
    heading = None
    while heading is None and time.monotonic() < deadline:
        heading = browser.js("const h = document.getElementById(location.hash.slice(1)); return h && h.textContent")
        time.sleep(0.05)
    assert heading is not None and "vLLM 0.33.0" in heading


def test_a_blocker_trap_is_said_beside_the_verdict(browser: Browser, cells: dict) -> None:
    """'Runs' is what the engine selects; llama.cpp's HIP backend corrupting output on gfx1151 (a silent blocker that
    names the engine and the part) is said right under it, not only in the trap list further down."""
    browser.open(f"{PAGE}?engine=llama-cpp&scheme=llama-cpp-q4-k&hardware=part:radeon-8060s-gfx1151")
    card = _card(browser)
    assert card["verdict"] == cells[("llama-cpp-q4-k", "amd-gfx1151")]["verdict"] == "runs"
    assert card["blockers"] == ["/gotchas/gfx1151-hip-corrupt-vulkan-correct/"]
    assert card["afterVerdict"] == "atlas-card__blocker" and "(silent)" in card["blockerLine"]
    assert "/gotchas/gfx1151-hip-corrupt-vulkan-correct/" in card["traps"]  # and still in the full list
    # a trap whose record narrows it no further keeps the plain words
    assert " A trap that can stop it or corrupt its output applies here: " in card["blockerLine"] and "only" not in card["blockerLine"]
    _pick(browser, scheme="llama-cpp-q4-0", hardware="target:x86-cpu-avx2")
    assert _card(browser)["blockers"] == [] and cells[("llama-cpp-q4-0", "x86-cpu-avx2")]["traps"] == []


CARD_PARTS = CARD.removesuffix("};\n") + ", trapParts: texts('.atlas-card__trap-parts')};\n"


def test_a_blocker_on_one_part_of_a_picked_target_names_that_part(browser: Browser, built_site: Path,
                                                                  cells: dict, names: dict) -> None:
    """MLX's CUDA wheels carry sm_100a code, which runs on the B200 and GB200 (10.0) but not on the B300 (10.3): its
    blocker names the B300 among SM 10.x's parts. On the target's card the line beside the verdict and the trap list
    say it applies on that part only (cards33: both said it applied here, to every part); a part pick keeps it for
    the B300 alone, in the plain words. (The example was the onnxruntime-gpu wheel's GB10 blocker until trt48 read
    the aarch64 wheel, which has code for the GB10.)"""
    trap = "mlx-cuda-wheels-sm100a-only-no-code-for-b300"
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    members = next(t["accelerators"] for t in index["records"]["hardware-target"] if t["id"] == "nvidia-sm100")
    named = next(g["accelerators"] for g in index["records"]["gotcha"] if g["id"] == trap)
    assert [p for p in members if p in named] == ["b300"] and len(members) > 1
    assert trap in cells[("mlx-lm-affine-4", "nvidia-sm100")]["traps"]
    b300 = names["accelerator/b300"]
    browser.open(f"{PAGE}?engine=mlx-lm&scheme=mlx-lm-affine-4&hardware=target:nvidia-sm100")
    card = _shown(browser, CARD_PARTS, "answer card")
    assert card["blockers"] == [f"/gotchas/{trap}/"]
    assert f" A trap that can stop it or corrupt its output applies on this target's {b300} only: " in card["blockerLine"]
    # inside the parenthesis the part's own aside is a comma clause, as the grid's notes say it (api: inline_name)
    inline = next(a["inline_name"] for a in index["records"]["accelerator"] if a["id"] == "b300")
    assert b300 == "NVIDIA B300 (Blackwell Ultra)" and inline == "NVIDIA B300, Blackwell Ultra"
    assert card["trapParts"] == [f"(on this target's {inline} only)"]
    for part, listed in [("b200", False), ("b300", True)]:
        _pick(browser, hardware=f"part:{part}")
        card = _shown(browser, CARD_PARTS, "answer card")
        assert (card["blockers"] == [f"/gotchas/{trap}/"]) is listed and card["trapParts"] == []
        assert (" applies here: " in card["blockerLine"]) is listed
    # a trap naming every part of the target keeps the plain words: the V100 is SM 7.0's only part
    _pick(browser, engine="onnxruntime", scheme="onnxruntime-matmulnbits-int4", hardware="target:nvidia-sm70")
    card = _shown(browser, CARD_PARTS, "answer card")
    assert " applies here: " in card["blockerLine"] and card["trapParts"] == []
    gb10 = names["accelerator/gb10-dgx-spark"]
    # a trap on one part that bites only in some use says both, once each (cards34s: 'on this target's NVIDIA GB10
    # (DGX Spark) only only if VLLM_MARLIN_INPUT_DTYPE is set')
    marlin = "vllm-marlin-input-dtype-fp8-sm121a-garbage"
    when = next(g["applies_when"] for g in index["records"]["gotcha"] if g["id"] == marlin)
    assert cells[("vllm-gptq-marlin", "nvidia-sm120")]["trap_parts"] == [{"trap": marlin, "parts": ["gb10-dgx-spark"]}]
    _pick(browser, engine="vllm", scheme="vllm-gptq-marlin", hardware="target:nvidia-sm120")
    card = _shown(browser, CARD_PARTS, "answer card")
    assert card["blockers"] == [f"/gotchas/{marlin}/"]
    assert f" applies on this target's {gb10} only, and only {when}: " in card["blockerLine"]
    assert "only only" not in card["blockerLine"]
    assert browser.console_errors() == []


def test_a_refusal_says_whether_the_engine_raises_or_no_backend_of_it_serves_the_hardware(browser: Browser,
                                                                                             cells: dict) -> None:
    """'Refused' covers an engine that raises at load (vLLM's kernel selection, with its message) and one none of whose
    kernels or backends serves the target (MLX-LM on an Intel GPU raises nothing: MLX computes on the host CPU); the
    line under the verdict says which, from the cell's engine message or gate, and is coloured by the verdict shown."""
    raised = cells[("vllm-ct-w4a4-nvfp4", "arm-cpu")]
    served = cells[("mlx-lm-affine-8", "intel-gpu")]
    assert raised["verdict"] == served["verdict"] == "refused"
    assert (raised["failure_message"] or raised["gate"]) and not (served["failure_message"] or served["gate"])
    browser.open(f"{PAGE}?engine=mlx-lm&scheme=mlx-lm-affine-8&hardware=part:arc-pro-b60")
    card = _card(browser)
    assert card["verdict"] == "refused" and "atlas-verdict--refused" in card["verdictClass"]
    assert "no kernel or backend of the engine serves this hardware" in card["verdictLine"]
    assert "refuses at load" not in card["verdictLine"]
    assert browser.js("return document.querySelector('#atlas-answer .atlas-card__raises')") is None
    _pick(browser, engine="vllm", scheme="vllm-ct-w4a4-nvfp4", hardware="target:arm-cpu")
    card = _card(browser)
    assert card["verdict"] == "refused" and "the engine refuses at load" in card["verdictLine"]
    # and the message it raises, as it prints it, heads the reasons
    assert browser.js("return document.querySelector('#atlas-answer .atlas-card__raises code').textContent") == \
        raised["failure_message"]


def test_the_card_names_the_engine_release_it_describes_and_a_later_one_compared_with_it(browser: Browser,
                                                                                           built_site: Path) -> None:
    """A reader on another release needs to know which one the answer describes: the card names the engine's release
    read and, where a finding compared a later release with it, that release with a link to the finding."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    engines = {e["id"]: e for e in index["records"]["engine"]}
    findings = {e["id"]: e for e in index["records"]["finding"]}
    vllm, llama = engines["vllm"], engines["llama-cpp"]
    assert vllm["later_releases"] and not llama["later_releases"]
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w8a8-int8&hardware=part:a10")
    release = _card(browser)["facts"]["Release"]
    assert release.startswith(f"{vllm['name']} {vllm['version_read']}; a later release, ")
    for later in vllm["later_releases"]:
        assert f"{later['release']}, was compared with it (what differs)" in release
    links = browser.js("return [...document.querySelectorAll('#atlas-answer .atlas-card dd a')]"
                       ".filter(a => a.textContent === 'what differs').map(a => a.pathname)")
    assert links == ["/" + findings[later["finding"]]["page"] for later in vllm["later_releases"]]
    _pick(browser, engine="llama-cpp", scheme="llama-cpp-q4-k", hardware="part:rtx-4090")
    card = _card(browser)
    assert card["facts"]["Release"] == f"{llama['name']} {llama['version_read']}"
    assert card["facts"]["Known from"] == "the engine's dispatch code, read at the version named under Release"
    # code read at main-branch commits, not at the release named (ONNX Runtime's MatMulNBits dispatch): said so
    sources = {s["id"]: s for s in index["records"]["source"]}
    cell = next(c for c in json.loads((built_site / "api/cells.json").read_text(encoding="utf-8"))["cells"]
                if c["scheme"] == "onnxruntime-matmulnbits-int4" and c["target"] == "x86-cpu-avx512")
    commits = sorted({sources[s]["revision"][:7] for s in cell["sources"] if sources[s].get("branch") == "main"
                      and sources[s]["type"] == "code"})
    assert commits
    _pick(browser, engine="onnxruntime", scheme="onnxruntime-matmulnbits-int4", hardware="part:amd-epyc-genoa")
    known = _card(browser)["facts"]["Known from"]
    # (its packed path rests on steps marked inferred, read at those commits: the card lists them after this)
    assert (", not at the version named under Release (the sources below say which file was read where), but for the "
            "steps below:") in known
    assert all(commit in known for commit in commits) and " on the main branch" in known
    # an engine that runs another's kernels names two releases under Release: the branch reads are said to be not at
    # the kernels' release, by name (ONNX Runtime GenAI runs ONNX Runtime's MatMulNBits)
    ort = engines["onnxruntime"]
    _pick(browser, engine="onnxruntime-genai", scheme="onnxruntime-genai-int4-cpu", hardware="part:amd-epyc-genoa")
    known = _card(browser)["facts"]["Known from"]
    assert (f", not at {ort['name']} {ort['version_read']}, the release of its kernels named under Release (the sources "
            "below say which file was read where), but for the steps below:") in known
    assert all(commit in known for commit in commits)
    # a cell whose deciding step the records mark inferred (TensorRT-LLM's FP8 on an A100: the failure in cuBLASLt is
    # PyTorch's report, not read in the engine) is said to be inferred from the code read, never read from it
    cell = next(c for c in json.loads((built_site / "api/cells.json").read_text(encoding="utf-8"))["cells"]
                if c["scheme"] == "tensorrt-llm-fp8" and c["target"] == "nvidia-sm80")
    assert cell["known_by"] == "inferred"
    _pick(browser, engine="tensorrt-llm", scheme="tensorrt-llm-fp8", hardware="part:a100-80gb-sxm4")
    known = _card(browser)["facts"]["Known from"]
    assert known.startswith("inferred from the engine's dispatch code, read at ")
    assert known.endswith(" (one step the verdict rests on was not read in the engine; the kernel or scheme record says which)")


def test_a_running_cell_known_by_inference_names_the_step_it_meets_and_where_it_was_read(browser: Browser, cells: dict,
                                                                                        names: dict) -> None:
    """A cell that runs only because its kernel passes a gate the records read at another commit (TensorRT-LLM's NVFP4
    on a B200: the CUTLASS FP4 SM dispatch, read at another commit than the one pinned) says which gate that is, what
    it tests and where it was read, linked, rather than pointing the reader to the records."""
    cell = cells[("tensorrt-llm-nvfp4", "nvidia-sm100")]
    assert cell["verdict"] == "runs" and cell["known_by"] == "inferred"
    steps = cell["inferred_steps"]
    assert steps and all(s["kernel"] == cell["kernel"] for s in steps)
    browser.open(f"{PAGE}?engine=tensorrt-llm&scheme=tensorrt-llm-nvfp4&hardware=part:b200")
    card = _card(browser)
    assert card["verdict"] == "runs"
    known = card["facts"]["Known from"]
    assert known.startswith("inferred from the engine's dispatch code, read at ")
    assert "the kernel or scheme record says which" not in known
    items = browser.js("return [...document.querySelectorAll('#atlas-answer .atlas-card__inferred li')].map(li => "
                       "[li.textContent, [...li.querySelectorAll('a')].map(a => [a.pathname, a.textContent])])")
    assert len(items) == len(steps)
    for (text, links), step in zip(items, steps):
        (read_in,) = step["read_in"]  # the SM gate was read in one file, at another commit
        source = names[f"source/{read_in['source']}"]
        assert text.startswith(f"{names['kernel/' + step['kernel']]} meets a step marked inferred: {step['checks']}, "
                               f"read in {source}, ")
        # the source's name names the commit it was read at: the card says it once (WORDS read_at)
        assert re.search(r" at [0-9a-f]{7}\b", source) and text.count(re.search(r" at ([0-9a-f]{7})", source)[1]) == 1
        # the locator after a comma, as the site's citations give one: the source's name carries its own parenthesis
        assert source.endswith(")") and f") ({read_in['where']})" not in text
        # ... and the engine whose code holds the step (the kernel's) with its own release, not "the version named
        # under Release", which names two releases where an engine runs another's kernels
        release = _release_read(step["engine"])
        assert text.endswith(f", {read_in['where']}, not in {names['engine/' + step['engine']]} at {release}")
        assert [p for p, _ in links] == [f"/kernels/{step['kernel']}/", f"/sources/{read_in['source']}/"]
    # the step the card names is the SM gate, not its failure account: the reason's words are not on the card
    assert "compute capability 10.0" in items[0][0] and "Arch unsupported" not in items[0][0]


def _release_read(engine: str) -> str:
    data = yaml.safe_load((RECORDS / "engines" / f"{engine}.yaml").read_text(encoding="utf-8"))
    return str(data["version_read"])


def test_an_onnxruntime_genai_card_names_the_release_its_inferred_step_was_not_read_at(browser: Browser, cells: dict,
                                                                                       names: dict) -> None:
    """ONNX Runtime GenAI runs ONNX Runtime's kernels: its Release line names GenAI's release first, then ONNX
    Runtime's. A step its kernel meets is ONNX Runtime's code, so the card says it was not read in ONNX Runtime at
    ONNX Runtime's release, never at GenAI's (the card said "the version named under Release", two releases)."""
    cell = cells[("onnxruntime-genai-int4-cpu", "x86-cpu-avx2")]
    steps = cell["inferred_steps"]
    assert cell["known_by"] == "inferred" and steps and {s["engine"] for s in steps} == {"onnxruntime"}
    browser.open(f"{PAGE}?engine=onnxruntime-genai&scheme=onnxruntime-genai-int4-cpu&hardware=target:x86-cpu-avx2")
    _card(browser)
    items = browser.js("return [...document.querySelectorAll('#atlas-answer .atlas-card__inferred li')].map(li => "
                       "li.textContent)")
    said = f", not in {names['engine/onnxruntime']} at {_release_read('onnxruntime')}"
    assert len(items) == len(steps) and all(text.endswith(said) for text in items)
    assert not any(_release_read("onnxruntime-genai") in text for text in items)
    browser.screenshot("selector-genai-inferred-step-1280")


def test_what_the_defaults_meet_folds_how_the_default_install_is_installed(browser: Browser, cells: dict) -> None:
    """'Met by the defaults' says what meets each condition; how that install is installed (often a paragraph) is
    folded under 'which install', closed until the reader opens it."""
    assumed = cells[("vllm-ct-w8a8-fp8", "nvidia-sm90")]["assumes"]
    routed = [a for a in assumed if a["route"]]
    assert routed and all(a["route"] not in a["install"] for a in routed)
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w8a8-fp8&hardware=part:h100-sxm")
    _card(browser)
    items = browser.js("""return [...document.querySelectorAll('#atlas-answer .atlas-card li')]
        .filter(li => li.querySelector(':scope > span > details.atlas-card__route'))
        .map(li => { const d = li.querySelector('details'); return {text: li.innerText, open: d.open,
                     summary: d.querySelector('summary').textContent, route: d.querySelector('span').textContent}; });""")
    assert [i["route"] for i in items][:len(routed)] == [a["route"] for a in routed]
    for item, a in zip(items, routed):
        assert not item["open"] and item["summary"] == "which install"
        assert a["install"] in item["text"] and a["route"] not in item["text"]  # closed: not shown


def test_a_blocker_that_needs_a_moe_model_says_so_and_a_card_cites_its_route_on_its_platform(browser: Browser,
                                                                                            cells: dict) -> None:
    """vLLM's FP8 scheme runs on an H100; the blocker linked to it stops only a MoE checkpoint's expert layers, and the
    banner and the trap list say so. llama.cpp's Q4_K there runs from its CUDA assets' PTX: the card cites NVIDIA's rule
    behind the driver condition and MMQ's own sources (the step past MMVQ's batch bound). bitsandbytes' 4-bit kernel on
    a CPU cites no CUDA backend file, though the kernel record serves both."""
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w8a8-fp8&hardware=part:h100-sxm")
    card = _card(browser)
    assert card["blockers"] == ["/gotchas/vllm-ct-moe-scale-layouts-linear-runs/"]
    assert " A trap that can stop it or corrupt its output applies here only with a MoE model: " in card["blockerLine"]
    assert card["trapWhen"] == ["(only with a MoE model)"]
    _pick(browser, engine="llama-cpp", scheme="llama-cpp-q4-k")
    shown = {urlsplit(s).path for s in _card(browser)["sources"]}
    cell = cells[("llama-cpp-q4-k", "nvidia-sm90")]
    assert {f"/sources/{s}/" for s in cell["sources"]} <= shown
    assert {"/sources/nvidia-cuda-compatibility-minor-version/", "/sources/nvidia-cuda-python-driver-cu-result-explanations/",
            "/sources/llama-cpp-src-mmq-cuh-b11312/"} <= shown
    _pick(browser, engine="transformers", scheme="transformers-bnb-nf4", hardware="target:x86-cpu-avx2")
    shown = {urlsplit(s).path for s in _card(browser)["sources"]}
    assert "/sources/bitsandbytes-src-backends-cpu-ops-0-50-1/" in shown
    assert "/sources/bitsandbytes-src-backends-cuda-ops-0-50-1/" not in shown
    assert browser.console_errors() == []


def _a_trap_on_one_part_shows_only_for_that_part(browser: Browser) -> None:
    """(On a page showing vLLM's W4A16 scheme.) GB10 and the RTX 5090 share a target; the trap naming GB10 alone is
    listed for it only."""
    for part, listed in [("rtx-5090", False), ("gb10-dgx-spark", True)]:
        _pick(browser, hardware=f"part:{part}")
        card = _card(browser)
        assert ("/gotchas/vllm-marlin-input-dtype-fp8-sm121a-garbage/" in card["traps"]) is listed
        assert "/gotchas/machete-not-on-blackwell-w4a16-to-marlin/" in card["traps"]


TITLE_LINES = """
const title = document.querySelector('#atlas-answer .atlas-card__title');
const lines = node => new Set([...node.getClientRects()].map(r => Math.round(r.top))).size;
const target = [...title.querySelectorAll('a')].pop();
return {target: lines(target), label: target.textContent,
        card: title.closest('.atlas-card').scrollWidth - title.closest('.atlas-card').clientWidth,
        page: document.documentElement.scrollWidth};
"""


def test_a_long_card_title_breaks_before_the_target_label_not_inside_it(browser: Browser) -> None:
    """At 1440 px 'SM 8.6 · Ampere' moves to the next line whole; at 390 px a label longer than the line wraps inside
    it, and nothing is wider than the card or the page."""
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w8a8-int8&hardware=part:a10", DESKTOP)
    for part, size, target_lines in [("a10", DESKTOP, 1), ("intel-xeon-sapphire-rapids", PHONE, 2)]:
        _pick(browser, hardware=f"part:{part}")
        browser.resize(size)
        _card(browser)
        found = browser.js(TITLE_LINES)
        assert found["target"] == target_lines, (part, found)
        assert found["card"] <= 0 and found["page"] <= size[0], (part, found)


def _the_w4a8_card_on_x86_runs_and_says_the_vllm_table_disagrees(browser: Browser, card: dict) -> None:
    assert card["verdict"] not in ("no", "refused")
    assert card["findings"] == ["/findings/vllm-w4a8-x86-cpu-cell/"]
    assert any(s.startswith("https://github.com/vllm-project/vllm/blob/") for s in card["sources"])
    assert "Known from" in browser.js("return document.querySelector('.atlas-card').textContent")
    browser.screenshot("selector-x86-1440")
    browser.resize(PHONE)
    browser.screenshot("selector-x86-390")
    assert browser.js("return document.documentElement.scrollWidth") <= PHONE[0]
    browser.resize(DESKTOP)


def _tab_reaches_every_control_in_order(browser: Browser) -> None:
    browser.js("[...document.querySelectorAll('.md-content a')].filter("
               "a => a.compareDocumentPosition(document.querySelector('.atlas-selector')) & Node.DOCUMENT_POSITION_FOLLOWING)"
               ".pop().focus()")
    reached = []
    for _ in range(3):
        browser.driver.switch_to.active_element.send_keys(Keys.TAB)
        reached.append(browser.js("return document.activeElement.id"))
    assert reached == ["atlas-engine", "atlas-scheme", "atlas-hardware"]
    browser.driver.switch_to.active_element.send_keys(Keys.END)  # a keyboard pick changes the answer too
    assert "hardware=target%3A" in browser.driver.current_url or "hardware=target:" in browser.driver.current_url


def test_a_conditional_card_says_what_runs_when_the_conditions_do_not_hold(browser: Browser, cells: dict, names: dict) -> None:
    # zentorch comes only with an extra, so a default install on Genoa runs CPUWNA16 (with a 16-bit model, which
    # --dtype auto always gives on x86: its cpu_gemm_wna16 has no float32 case): runs, the default kernel named
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-wna16&hardware=part:amd-epyc-genoa")
    cell = cells[("vllm-ct-wna16", "x86-cpu-avx512")]
    assert _card(browser)["verdict"] == cell["verdict"] == "runs" and cell["default_kernel"] != cell["kernel"]
    assert _card(browser)["facts"]["Kernel"].startswith(names[f"kernel/{cell['default_kernel']}"] + " on a default install; ")
    steps = cell["otherwise"]
    assert [s["off_default"] for s in steps] == [False, True, True]
    shown = browser.js("""
const d = document.querySelector('#atlas-answer .atlas-otherwise');
if (!d) return null;
const closed = !d.open;
d.open = true;
return {closed: closed, summary: d.querySelector('summary').textContent, visible: d.querySelector('ol').offsetHeight > 0,
        steps: [...d.querySelectorAll('.atlas-otherwise__step')].map(li => ({verdict: li.dataset.verdict,
          badge: li.querySelector('.atlas-verdict').className, text: li.textContent}))};""")
    assert shown is not None and shown["closed"] and shown["visible"]
    assert names[f"kernel/{steps[0]['selected']}"] in shown["summary"]
    # every distinct outcome is named in the summary, so a failing first step does not stand for all of them
    assert all(names[f"kernel/{s['selected']}"] in shown["summary"] for s in steps if s["selected"])
    assert [s["verdict"] for s in shown["steps"]] == [s["verdict"] for s in steps]
    for step, item in zip(steps, shown["steps"]):
        assert item["badge"].endswith(f"atlas-verdict--{step['verdict']}") and step["unmet"][0] in item["text"]
    assert browser.console_errors() == []
    _a_trap_on_one_part_shows_only_for_that_part(browser)  # the same scheme, other parts picked


OTHERWISE = """
const card = document.querySelector('#atlas-answer .atlas-card');
const d = card && card.querySelector('.atlas-otherwise');
if (!d) return null;
const h = [...card.querySelectorAll('h3')].find(h => ['Conditions', 'This kernel when', 'The opt-in kernel when'].includes(h.textContent));
const list = h ? h.parentElement.querySelector(':scope > ul, :scope > ol') : null;
return {summary: d.querySelector('summary').textContent, open: d.open, list: list ? list.tagName : null,
        conditions: list ? [...list.children].map(li => li.textContent) : [],
        why: [...d.querySelectorAll('summary .atlas-otherwise__why')].map(s => s.textContent)};
"""


def test_the_collapsed_line_says_which_condition_leads_where_and_why_a_step_fails(browser: Browser, cells: dict,
                                                                                 names: dict) -> None:
    """ONNX Runtime's 4-bit MatMulNBits on a T4: without the first condition (the x86_64 wheel, since the aarch64 one
    has no code for 7.5: trt48) the fused GEMV is selected and fails at run time, and the line says why, in the cell's
    own reason; without the second (at most 16 rows) the dequantize + cuBLAS path runs. The condition list is
    numbered, and the line names each outcome by the numbers of the conditions that lead there (cards33: it said
    'Fails at run time via ... or Runs via ...', neither which nor why). A card with one outcome says it alone, as
    before. (The example was the V100 until its answer gained a build per Linux wheel.)"""
    cell = cells[("onnxruntime-matmulnbits-int4", "nvidia-sm75")]
    steps = cell["otherwise"]
    assert [(s["unmet"], s["verdict"]) for s in steps] == [([cell["conditions"][0]], "fails-at-runtime"),
                                                          ([cell["conditions"][1]], "runs")]
    assert len(steps[0]["reasons"]) == 1
    browser.open(f"{PAGE}?engine=onnxruntime&scheme=onnxruntime-matmulnbits-int4&hardware=target:nvidia-sm75")
    shown = _shown(browser, OTHERWISE, "the steps when the conditions fail")
    assert (shown["list"], shown["conditions"], shown["open"]) == ("OL", cell["conditions"], False)
    # condition 1 is the install's (the wheel with code for 7.5): the line does not name the GEMV as where it fails
    assert steps[0]["of_install"] and not steps[1]["of_install"]
    assert shown["summary"] == (
        f"If the conditions do not hold: without condition 1, Fails at run time whichever kernel the engine selects"
        f": {steps[0]['reasons'][0]}; without condition 2, Runs via {names['kernel/' + steps[1]['selected']]}")
    assert shown["why"] == [f": {steps[0]['reasons'][0]}"]
    # one outcome (AITER's block FP8 GEMM or Triton's on MI300X): no numbers, the list stays a plain list
    one = cells[("vllm-fp8-block", "amd-gfx942")]
    assert len({(s["verdict"], s["selected"]) for s in one["otherwise"]}) == 1
    _pick(browser, engine="vllm", scheme="vllm-fp8-block", hardware="target:amd-gfx942")
    shown = _shown(browser, OTHERWISE, "the steps when the conditions fail")
    assert shown["list"] == "UL" and shown["summary"] == (
        f"If the conditions do not hold: Runs via {names['kernel/' + one['otherwise'][0]['selected']]}")
    assert browser.console_errors() == []


def test_a_driver_condition_of_the_install_does_not_name_the_kernel_as_where_it_fails(browser: Browser, cells: dict,
                                                                                       names: dict) -> None:
    """llama.cpp Q8_0 on a V100: condition 1 is the release download and its driver (the CUDA 12.8 binary's PTX for
    7.0 needs a driver for CUDA 12.8 or later). Without it every CUDA kernel of the binary fails, not MMVQ alone: the
    collapsed line said "without condition 1, Fails at run time in llama.cpp MMVQ (2 reasons, below)" (cond1wording33).
    It now says the failure holds whichever kernel the engine selects, and the step names the install, not MMVQ, as
    whose condition it is; condition 2 (MMVQ's own batch bound) still names the kernel that then runs."""
    cell = cells[("llama-cpp-q8-0", "nvidia-sm70")]
    steps = cell["otherwise"]
    assert steps[0]["of_install"] and steps[0]["verdict"] == "fails-at-runtime" and len(steps[0]["reasons"]) == 2
    assert not any(s["of_install"] for s in steps[1:])
    mmvq = names["kernel/" + steps[0]["selected"]]
    browser.open(f"{PAGE}?engine=llama-cpp&scheme=llama-cpp-q8-0&hardware=part:v100")
    shown = _shown(browser, OTHERWISE, "the steps when the conditions fail")
    assert shown["summary"].startswith(
        "If the conditions do not hold: without condition 1, Fails at run time whichever kernel the engine selects "
        f"(2 reasons, below); without condition 2, Runs via {names['kernel/' + steps[1]['selected']]}")
    assert f"in {mmvq}" not in shown["summary"]
    first = browser.js("""
const li = document.querySelector('#atlas-answer .atlas-otherwise__step');
return li.querySelector('.atlas-otherwise__unmet').textContent;""")
    assert first.endswith("(a condition of the install, whichever kernel the engine selects)") and mmvq not in first
    assert browser.console_errors() == []


INSTALL_GROUPED = [("exllamav2", "exllamav2-exl2-4", "nvidia-sm70"), ("exllamav2", "exllamav2-exl2-8", "nvidia-sm70"),
                   ("exllamav2", "exllamav2-gptq-4", "nvidia-sm70"), ("vllm", "vllm-fp8-block", "amd-gfx906"),
                   ("vllm", "vllm-fp8-block-moe", "amd-gfx906"), ("vllm", "vllm-fp8-moe", "amd-gfx906")]


def test_the_install_step_is_not_grouped_with_a_later_step_of_the_same_kernel(browser: Browser, cells: dict,
                                                                               names: dict) -> None:
    """Six cards have, after the install's step (a build for the target: its binaries fail whichever kernel the engine
    selects), a later step of a kernel's own condition (the exllamav2 extension built, the ROCm Triton compiling the
    FP8 tl.dot) with the same outcome and kernel. The collapsed line grouped the two as one outcome and said "without
    conditions 1 or 2, Fails at run time in <kernel>: <the install's reason>" (on gfx906 "Fails at run time in vLLM
    TritonExperts: no code compiled for gfx906 ...", with the kernel's own reason left out): the install's condition
    is not "in" that kernel (cond1wording33s). The install's step is now an outcome of its own, said whichever kernel
    the engine selects, and the kernel's step says its own reason."""
    for n, (engine, scheme, target) in enumerate(INSTALL_GROUPED):
        steps = cells[(scheme, target)]["otherwise"]
        install = steps[0]
        later = [s for s in steps[1:] if (s["verdict"], s["selected"]) == (install["verdict"], install["selected"])]
        assert install["of_install"] and install["verdict"] == "fails-at-runtime" and len(later) == 1
        assert not any(s["of_install"] for s in steps[1:])
        if n:
            _pick(browser, engine=engine, scheme=scheme, hardware=f"target:{target}")
        else:
            browser.open(f"{PAGE}?engine={engine}&scheme={scheme}&hardware=target:{target}")
        shown = _shown(browser, OTHERWISE, "the steps when the conditions fail")
        assert shown["list"] == "OL", scheme
        own = shown["conditions"].index(later[0]["unmet"][0]) + 1
        kernel = names["kernel/" + install["selected"]]
        assert shown["summary"].startswith(
            "If the conditions do not hold: without condition 1, Fails at run time whichever kernel the engine selects: "
            + install["reasons"][0] + "; "), scheme
        assert f"without conditions 1 or {own}," not in shown["summary"]
        assert f"in {kernel}: {install['reasons'][0]}" not in shown["summary"]
        if len({(s["verdict"], s["selected"]) for s in steps}) == 1:  # (gfx906: the kernel's step, with its own reason)
            reason = later[0]["reasons"][0].removeprefix(install["selected"] + ": ")
            assert shown["summary"].endswith(f"; without condition {own}, Fails at run time in {kernel}: {reason}"), scheme
    assert browser.console_errors() == []


WORSE = """
const card = document.querySelector('#atlas-answer .atlas-card');
const h = card && [...card.querySelectorAll('h3')].find(h => h.textContent === 'Settings that make this worse');
if (!h) return null;
return [...h.parentElement.querySelectorAll(':scope > ul > li')].map(li => ({
  setting: li.querySelector('code').textContent, text: li.textContent,
  reasons: [...li.querySelectorAll('ol.atlas-card__worse-reasons > li')].map(r => ({text: r.textContent,
    link: r.querySelector('a') ? r.querySelector('a').pathname : null}))}));
"""


def test_a_refused_setting_lists_every_reason_in_the_engines_order(browser: Browser, cells: dict, names: dict) -> None:
    """vLLM's FP8 per-tensor scheme on MI300X runs through ROCm's kernel; --linear-backend aiter leaves the two AITER
    per-token kernels, and both refuse the per-tensor scales: the card lists both reasons, each naming its kernel
    (linked), in the engine's order (cards33: it showed the first and '(and 1 more)'). A value with one reason keeps it
    on its line."""
    cell = cells[("vllm-fp8", "amd-gfx942")]
    aiter = next(w for w in cell["worse"] if w["setting"] == "--linear-backend aiter")
    assert aiter["verdict"] == "refused" and len(aiter["reasons"]) == 2
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-fp8&hardware=target:amd-gfx942")
    shown = {w["setting"]: w for w in _shown(browser, WORSE, "settings that make it worse")}
    ids = [r.split(": ", 1)[0] for r in aiter["reasons"]]
    assert shown["--linear-backend aiter"]["reasons"] == [
        {"text": f"{names['kernel/' + k]}: {r.split(': ', 1)[1]}", "link": f"/kernels/{k}/"} for k, r in zip(ids, aiter["reasons"])]
    assert shown["--linear-backend aiter"]["text"].startswith("--linear-backend aiter: refused, 2 reasons in the engine's order:")
    assert "more)" not in shown["--linear-backend aiter"]["text"]
    # one reason stays on the line: B12X on a B200 refuses once per kernel, FlashInfer's b12x once
    sm100 = cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm100")]
    single = next(w for w in sm100["worse"] if w["verdict"] == "refused" and len(w["reasons"]) == 1
                  and not w["passed_over"])
    _pick(browser, scheme="vllm-ct-w4a4-nvfp4", hardware="target:nvidia-sm100")
    shown = {w["setting"]: w for w in _shown(browser, WORSE, "settings that make it worse")}
    kernel, message = single["reasons"][0].split(": ", 1)
    assert shown[single["setting"]]["reasons"] == []
    assert shown[single["setting"]]["text"] == f"{single['setting']}: refused: {names['kernel/' + kernel]}: {message}"
    # a value whose kernel the default install passes over (fbgemm_gpu not installed) says so, and what it gets then
    fbgemm = next(w for w in sm100["worse"] if w["setting"] == "--linear-backend fbgemm")
    kernel, message = fbgemm["reasons"][0].split(": ", 1)
    assert (fbgemm["passed_over"], fbgemm["given_it"]) == (kernel, "runs-if")
    assert shown["--linear-backend fbgemm"]["text"] == (
        f"--linear-backend fbgemm: refused on the default install, which lacks what {names['kernel/' + kernel]} needs "
        f"(where that is met, it runs): {names['kernel/' + kernel]}: {message}")
    assert len(shown["--linear-backend b12x"]["reasons"]) == 2
    assert browser.console_errors() == []


def test_an_unmet_conditions_reasons_name_each_kernel_as_the_engine_does(browser: Browser, cells: dict, names: dict) -> None:
    # without amd-quark, vLLM's ROCm MXFP4 list refuses with every candidate's reason, which the engine prints after
    # each kernel's class name: the card names each kernel too (linked to its page), never by the record's id
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w4a4-mxfp4&hardware=part:mi250x")
    step = cells[("vllm-ct-w4a4-mxfp4", "amd-gfx90a")]["otherwise"][0]
    ids = [r.split(": ", 1)[0] for r in step["reasons"]]
    assert step["verdict"] == "refused" and len(ids) == 3 and all(f"kernel/{k}" in names for k in ids)
    shown = _shown(browser, """
const d = document.querySelector('#atlas-answer .atlas-otherwise');
if (!d) return null;
d.open = true;
return [...d.querySelectorAll('.atlas-otherwise__reasons li')].map(li => ({text: li.textContent,
        link: li.querySelector('a') ? li.querySelector('a').pathname : null}));""", "steps when the conditions fail")
    assert [s["text"] for s in shown] == [f"{names['kernel/' + k]}: {r.split(': ', 1)[1]}" for k, r in zip(ids, step["reasons"])]
    assert [s["link"] for s in shown] == [f"/kernels/{k}/" for k in ids]
    assert browser.console_errors() == []


def _the_page_names_the_engines_it_cannot_answer_for(browser: Browser, built_site: Path) -> None:
    """Engines that run models but have no scheme records are named under the picker, each linking to its page; an
    engine the picker offers is not among them."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    offered = {s["engine"] for s in index["records"]["scheme"]}
    expected = [f"/engines/{e['id']}/" for e in index["records"]["engine"]
                if e["category"] in ("serving-engine", "local-runtime") and e["id"] not in offered]
    named = browser.js("return [...document.querySelectorAll('.atlas-selector__underived a')].map(a => a.pathname)")
    # Since TensorRT-LLM got scheme records (2026-12-05) every engine that runs models has some, so the list is empty
    # and the note absent; the comparison still fails if the page names an engine that has schemes or omits one without.
    assert named == expected
    assert not offered & {path.split("/")[2] for path in named}


COMPARISON = """
const box = document.querySelector('#atlas-answer .atlas-compare');
if (!box) return null;
return {format: box.dataset.format, title: box.querySelector('h2').textContent,
        tally: [...box.querySelectorAll('.atlas-compare__tally .atlas-verdict')].map(b => [b.className,
                 Number(b.nextSibling.textContent.trim()),
                 Number((b.parentNode.querySelector('.atlas-compare__tally-whole')?.textContent.match(/\\d+/) || [0])[0])]),
        rows: [...box.querySelectorAll('tbody tr')].map(tr => ({scheme: tr.dataset.scheme, verdict: tr.dataset.verdict,
          state: tr.dataset.state || null, stateText: tr.cells[2].textContent,
          badge: tr.querySelector('.atlas-verdict')?.className, answer: tr.querySelector('.atlas-compare__answer')?.href,
          kernel: tr.cells[3].textContent, computes: tr.cells[4].textContent,
          trapCount: Number((tr.cells[5].textContent.match(/(\\d+) traps?/) || [0, 0])[1]),
          worst: tr.cells[5].querySelector('.atlas-severity')?.textContent || null,
          silent: !!tr.cells[5].querySelector('.atlas-silent'),
          disputed: !!tr.querySelector('.atlas-compare__disputed')})),
        gaps: Number(box.querySelector('.atlas-compare__tally .atlas-compare__gap')?.nextSibling.textContent.trim() || 0)};
"""


def _comparison(browser: Browser) -> dict:
    return _shown(browser, COMPARISON, "comparison")


ORDER = ["runs", "runs-if", "fallback", "fails-at-runtime", "refused"]


def _shown_as(cell: dict) -> tuple[str, bool]:
    """A cell's verdict and whether it is shown with "if" beside it as a fallback (the data API's fallback_if)."""
    return cell["verdict"], bool(cell["verdict"] == "fallback" and cell["fallback_if"])


def _ranked_as(cell: dict) -> tuple[str, bool, bool]:
    """What a comparison row is ranked and counted by: an expert-layer cell's whole checkpoint where the other layers'
    scheme has a cell, else the cell as shown (`_shown_as`); its verdict, whether "if", and whether that reads otherwise
    than the row's own badge (the tally then says the row is counted by its whole checkpoint)."""
    whole = cell["whole_checkpoint"] or {}
    ranked = ((whole["verdict"], bool(whole["verdict"] == "fallback" and whole["fallback_if"])) if whole.get("verdict")
              else _shown_as(cell))
    return (*ranked, ranked != _shown_as(cell))


def _tally_of(ranked: list[tuple[str, bool, bool]]) -> list[tuple[str, int, int]]:
    """The tally the comparison shows for rows ranked so: per verdict as shown, best first, its count and how many of
    those rows are counted by their whole checkpoint."""
    shown = sorted({(v, when) for v, when, _ in ranked}, key=lambda k: (ORDER.index(k[0]), k[1]))
    return [(v, sum(1 for r in ranked if r[:2] == (v, when)), sum(1 for r in ranked if r == (v, when, True)))
            for v, when in shown]


def test_any_engine_compares_every_scheme_that_reads_the_format(browser: Browser, built_site: Path, cells: dict,
                                                               names: dict) -> None:
    """Every scheme listing the format has one row with its cell's verdict, best verdict first; the tally counts the
    rows; a row's verdict opens that scheme's full answer for the same hardware, with the same verdict. The first
    comparison is opened by its link, each next one picked in the lists of the answer the last row link opened."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    gotchas = {g["id"]: g for g in index["records"]["gotcha"]}
    for n, (format_id, part) in enumerate([("gptq", "rtx-5090"), ("fp8-e4m3", "h100-sxm"), ("w4a16-mxfp4", "mi300x"),
                                           ("fp8-e4m3", "amd-epyc-genoa")]):
        if n:
            _pick(browser, engine="any", scheme=f"format:{format_id}", hardware=f"part:{part}")
        else:
            browser.open(f"{PAGE}?engine=any&format={format_id}&hardware=part:{part}")
        _compares_every_scheme_that_reads_the_format(browser, index, gotchas, cells, names, format_id, part)


def _compares_every_scheme_that_reads_the_format(browser: Browser, index: dict, gotchas: dict, cells: dict, names: dict,
                                                 format_id: str, part: str) -> None:
    target = next(a["target"] for a in index["records"]["accelerator"] if a["id"] == part)
    schemes = [s["id"] for s in index["records"]["scheme"] if format_id in s["formats"]]
    shown = _comparison(browser)
    assert shown["format"] == format_id and shown["title"].startswith(names[f"format/{format_id}"] + " on ")
    assert sorted(row["scheme"] for row in shown["rows"]) == sorted(schemes) and len(schemes) >= 2
    # schemes with no cell here (their engine has no rule for the platform) come last, as gaps, never as a verdict;
    # a platform plugin's scheme off the plugin's platforms is no gap either, and links to the card saying so
    platform = next(t["platform"] for t in index["records"]["hardware-target"] if t["id"] == target)
    off = {e["id"] for e in index["records"]["engine"] if e.get("plugin_of") and platform not in e["plugin_of"]["platforms"]}
    away = {s["id"] for s in index["records"]["scheme"] if s["engine"] in off}
    gaps = [row for row in shown["rows"] if (row["scheme"], target) not in cells]
    assert shown["rows"][len(shown["rows"]) - len(gaps):] == gaps
    assert all(row["verdict"] == "" and row["badge"] is None for row in gaps)
    assert all((row["answer"] is not None) == (row["state"] == "plugin-elsewhere") == (row["scheme"] in away) for row in gaps)
    derived = shown["rows"][:len(shown["rows"]) - len(gaps)]
    verdicts = [cells[(row["scheme"], target)]["verdict"] for row in derived]
    assert [row["verdict"] for row in derived] == verdicts and verdicts
    # best first, an expert-layer row by its whole checkpoint (what loading the checkpoint gets)
    ranks = [(cells[(row["scheme"], target)]["whole_checkpoint"] or {}).get("verdict") or v for row, v in zip(derived, verdicts)]
    assert ranks == sorted(ranks, key=ORDER.index)
    assert shown["gaps"] == len([row for row in gaps if row["scheme"] not in away])
    for row in derived:
        cell = cells[(row["scheme"], target)]
        assert row["badge"].endswith(f"atlas-verdict--{cell['verdict']}")
        if cell["kernel"] and _lead_kernel(cell) != cell["kernel"]:  # the default install's first, then the opt-in's
            assert row["kernel"].startswith(names[f"kernel/{_lead_kernel(cell)}"] + " on a default install")
            assert f"; {names['kernel/' + cell['kernel']]} with " in row["kernel"]
        else:
            assert row["kernel"] == (names[f"kernel/{cell['kernel']}"] if cell["kernel"] else "—")
        assert row["disputed"] == any(not p["agrees"] for p in cell["published"])
        # the traps that reach this part (a trap naming parts applies to those only), the worst first, silent marked
        traps = [gotchas[t] for t in cell["traps"] if not gotchas[t].get("accelerators") or part in gotchas[t]["accelerators"]]
        assert row["trapCount"] == len(traps)
        assert row["worst"] == (min((t["severity"] for t in traps), key=["blocker", "major", "minor"].index) if traps else None)
        assert row["silent"] == any(t.get("silent") for t in traps)
        if cell["computes_in"]:
            labels = {f["id"]: f["precision_label"] for f in index["records"]["format"]}  # what the multiply runs in
            assert row["computes"] == " or ".join(labels[f] for f in cell["computes_in"])
    # counted as the rows are ranked (an expert-layer row by its whole checkpoint, said beside the count) and labelled:
    # a fallback a default install does not reach ("Falls back if") after the others
    ranked = [_ranked_as(cells[(row["scheme"], target)]) for row in derived]
    assert [(badge.split("--")[-1], count, whole) for badge, count, whole in shown["tally"]] == _tally_of(ranked)
    assert browser.console_errors() == []
    first = derived[0]
    browser.driver.get(first["answer"])
    assert _card(browser)["verdict"] == first["verdict"]
    query = parse_qs(urlsplit(browser.driver.current_url).query)
    assert query["scheme"] == [first["scheme"]] and query["hardware"] == [f"part:{part}"]


def test_a_fallback_a_default_install_does_not_reach_says_if_on_the_card_and_in_the_comparison(
        browser: Browser, cells: dict) -> None:
    """On a V100 the NVFP4 MoE emulation needs a build of PyTorch and vLLM for compute capability 7.0; a default install
    fails at run time. The card said "Falls back" as it does for a fallback a default install reaches; it now says
    "Falls back, if", as "Runs, if" does, and the comparison row says "Falls back if"."""
    scheme = "vllm-ct-w4a4-nvfp4-moe"
    assert cells[(scheme, "nvidia-sm70")]["fallback_if"] and not cells[(scheme, "nvidia-sm80")]["fallback_if"]
    browser.open(f"{PAGE}?engine=vllm&scheme={scheme}&hardware=target:nvidia-sm70")
    card = _card(browser)
    assert card["verdict"] == "fallback" and card["verdictLine"].startswith("Falls back, if only given the conditions")
    assert card["verdictLine"].endswith("fails at run time, refuses, or runs the model on another device")
    _pick(browser, hardware="target:nvidia-sm80")  # reached with the default dtype: a plain fallback
    assert _card(browser)["verdictLine"].startswith("Falls back loads, but")
    _pick(browser, engine="any", scheme="format:nvfp4", hardware="target:nvidia-sm70")
    rows = {row["scheme"]: row for row in _comparison(browser)["rows"]}
    # (after it, the whole checkpoint's answer: the dense layers' scheme is refused on a V100)
    assert rows[scheme]["stateText"].startswith("Falls back if") and rows[scheme]["badge"].endswith("atlas-verdict--fallback")
    # the related formats' tally counts a row as it labels it (FP8 through transformers on a V100 without a device_map
    # runs on the host CPU; the default PyTorch has no Volta code)
    related = browser.js("return document.querySelector('#atlas-answer .atlas-compare__related').textContent")
    assert cells[("transformers-finegrained-fp8", "nvidia-sm70")]["fallback_if"] and "Falls back if" in related
    assert browser.console_errors() == []


def test_the_comparison_counts_an_expert_layer_row_by_the_whole_checkpoint_it_is_ranked_by(
        browser: Browser, cells: dict) -> None:
    """On a V100 vLLM's NVFP4 MoE experts fall back ("Falls back if") and the dense layers' scheme is refused, so the
    row ranks with the refusals (the whole checkpoint); its tally counted it "Falls back if 1" above rows that are all
    refused or failing. It now counts it as it ranks it, says so beside the count and after the tally, and the rows'
    order is the tally's."""
    scheme, target = "vllm-ct-w4a4-nvfp4-moe", "nvidia-sm70"
    whole = cells[(scheme, target)]["whole_checkpoint"]
    assert cells[(scheme, target)]["verdict"] == "fallback" and whole["verdict"] == "refused"
    browser.open(f"{PAGE}?engine=any&format=nvfp4&hardware=target:{target}")
    shown = _comparison(browser)
    derived = [row for row in shown["rows"] if row["verdict"]]
    row = next(r for r in derived if r["scheme"] == scheme)
    assert row["stateText"].startswith("Falls back if")  # the row's own badge stays its expert layers'
    ranked = [_ranked_as(cells[(r["scheme"], target)]) for r in derived]
    assert ranked == sorted(ranked, key=lambda k: (ORDER.index(k[0]), k[1]))  # the rows in the tally's order
    assert [(badge.split("--")[-1], count, by_whole) for badge, count, by_whole in shown["tally"]] == _tally_of(ranked)
    assert ("refused", sum(1 for r in ranked if r[0] == "refused"), 1) in [
        (badge.split("--")[-1], count, by_whole) for badge, count, by_whole in shown["tally"]]
    tally = browser.js("return document.querySelector('#atlas-answer .atlas-compare__tally').textContent")
    assert "Falls back" not in tally and "(1 by the whole checkpoint)" in tally
    assert "is ranked and counted by its whole checkpoint" in tally
    assert browser.console_errors() == []


COMPARE_WHY = """return [...document.querySelectorAll('#atlas-answer .atlas-compare tbody tr')].filter(tr => tr.dataset.verdict)
  .map(tr => { const why = tr.querySelector('td[data-label="Verdict"] details.atlas-compare__why');
    return {scheme: tr.dataset.scheme, verdict: tr.dataset.verdict, why: why ? {
      summary: why.querySelector('summary').textContent, open: why.open,
      reasons: [...why.querySelectorAll('ol > li')].map(li => li.textContent.replace(/\\s+/g, ' ').trim()),
      raises: why.querySelector('.atlas-card__raises code')?.textContent || null} : null}; })"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
def test_a_compared_refusal_folds_its_reasons_under_its_verdict(browser: Browser, cells: dict, size: tuple[int, int]) -> None:
    """A Refused row of the comparison once said no more than "Refused" (its kernel and what it computes in are "—"):
    the reason was on another page, the full answer. As in the support tables, where a cell leads to its note, it is
    now one click away: a "why" under the verdict opens the card's own "why not", the message the engine raises and
    each reason in the engine's order; a row that runs has none."""
    folded = 0
    for n, (format_id, part, target) in enumerate([("fp8-e4m3", "rtx-4090", "nvidia-sm89"),
                                                   ("fp8-e4m3", "amd-epyc-genoa", "x86-cpu-avx512")]):
        if n:
            _pick(browser, engine="any", scheme=f"format:{format_id}", hardware=f"part:{part}")
        else:
            browser.open(f"{PAGE}?engine=any&format={format_id}&hardware=part:{part}", size)
        _comparison(browser)
        rows = browser.js(COMPARE_WHY)
        assert rows
        for row in rows:
            cell = cells[(row["scheme"], target)]
            if cell["verdict"] not in ("refused", "fails-at-runtime"):
                assert row["why"] is None, row
                continue
            why = row["why"]
            assert why is not None and why["summary"] == "why" and not why["open"], row
            assert len(why["reasons"]) == len(cell["reasons"]), row
            assert all(shown.endswith(" ".join((r.partition(": ")[2] or r).split()))
                       for shown, r in zip(why["reasons"], cell["reasons"])), row
            assert why["raises"] == ((cell["failure_message"] or None) if cell["verdict"] == "refused" else None), row
            folded += row["verdict"] == "refused"
    assert folded >= 3
    opened = browser.js("""const why = document.querySelector('#atlas-answer tr[data-verdict="refused"] .atlas-compare__why');
        why.querySelector('summary').click(); const box = why.querySelector('ol').getBoundingClientRect();
        return why.open && box.width > 0 && box.height > 0 && box.right <= document.documentElement.clientWidth""")
    assert opened


WHOLE = """const select = document.querySelector('#atlas-' + arguments[0]), style = getComputedStyle(select);
const ctx = document.createElement('canvas').getContext('2d');
ctx.font = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(' ');
const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
const text = select.options[select.selectedIndex].text, line = select.nextElementSibling;
const box = line ? line.getBoundingClientRect() : null;
return {text, cut: ctx.measureText(text).width > room,
        whole: line && !line.hidden && box.width > 0 && line.scrollWidth <= line.clientWidth &&
               box.right <= document.documentElement.clientWidth ? line.textContent : null}"""


@pytest.mark.parametrize("size", [(1280, 900), PHONE], ids=["1280", "390"])
def test_a_long_name_the_closed_list_cuts_is_said_whole_under_it(browser: Browser, size: tuple[int, int]) -> None:
    """A closed list shows as much of its pick as its width holds: at 390 px, and at 1280 beside the two other lists, a
    long format name ("NVFP4 (Blackwell block-scaled E2M1 with E4M3 scales)") or a scheme with its formats was cut,
    with nothing on the page saying it whole until the answer's title. Each pick the list cuts is now said whole under
    it (wrapping, inside the page's width); a pick that fits is not said twice."""
    browser.open(f"{PAGE}?engine=any&format=nvfp4&hardware=part:h100-sxm", size)
    _comparison(browser)
    formats = browser.js("return [...document.querySelectorAll('#atlas-scheme option')].map(o => o.value)")
    shown = []
    for value in formats:
        _pick(browser, scheme=value)
        shown.append(browser.js(WHOLE, "scheme"))
    _pick(browser, engine="vllm")
    for value in browser.js("return [...document.querySelectorAll('#atlas-scheme option')].map(o => o.value)")[:12]:
        _pick(browser, scheme=value)
        shown.append(browser.js(WHOLE, "scheme"))
    shown += [browser.js(WHOLE, "hardware"), browser.js(WHOLE, "engine")]
    cut = [s for s in shown if s["cut"]]
    assert len(cut) >= 3  # at 1280 the scheme names with their formats; at 390 the long format names as well
    assert [s for s in cut if s["whole"] != s["text"]] == []
    short = [s for s in shown if len(s["text"]) < 20]  # "vLLM": never said twice
    assert short and [s for s in short if s["whole"] is not None] == []


def test_the_page_opens_on_a_comparison_and_a_switch_of_engine_keeps_the_format(browser: Browser) -> None:
    browser.open(PAGE)
    # right after a load the page may still be filling its lists from the data it fetches (failed once under load)
    _shown(browser, "const v = document.querySelector('#atlas-engine').value; return v === 'any' ? v : null;",
           "engine list opened on 'any engine'")
    _comparison(browser)
    _tab_reaches_every_control_in_order(browser)  # the page as opened, before any pick
    _pick(browser, engine="transformers", scheme="transformers-mxfp4", hardware="part:b200")
    _card(browser)
    pick = "const s = document.querySelector('#atlas-engine'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));"
    browser.js(pick, "any")
    assert _comparison(browser)["format"] == "w4a16-mxfp4"  # the scheme's first format
    assert parse_qs(urlsplit(browser.driver.current_url).query) == {
        "engine": ["any"], "format": ["w4a16-mxfp4"], "hardware": ["part:b200"]}
    browser.js(pick, "mlx-lm")
    assert "MLX" in _card(browser)["title"]  # the engine's scheme for that format
    assert browser.js("return document.querySelector('#atlas-scheme').value") == "mlx-lm-mxfp4"


def test_a_link_with_one_engine_and_a_format_opens_that_engine_s_scheme_for_it(browser: Browser) -> None:
    """`format=` with a named engine picks the engine's scheme that reads the format, as switching engines does (it
    once fell to the engine's first scheme: transformers' FBGEMM FP8 answered for MXFP4)."""
    browser.open(f"{PAGE}?engine=transformers&format=w4a16-mxfp4&hardware=part:a100-80gb-sxm4")
    card = _card(browser)
    assert "MXFP4" in card["title"]
    assert browser.js("return document.querySelector('#atlas-scheme').value") == "transformers-mxfp4"
    # the scheme quantizes only gpt-oss's expert layers (layers: experts), so its answer is about those, not dense ones
    assert card["facts"]["Covers"].startswith("the expert layers of the mixture-of-experts models the scheme matches")
    assert browser.js("return document.querySelectorAll('.atlas-notice').length") == 0
    assert parse_qs(urlsplit(browser.driver.current_url).query)["scheme"] == ["transformers-mxfp4"]


def test_a_link_to_what_the_atlas_does_not_hold_says_so_as_text_until_the_first_change(browser: Browser) -> None:
    browser.open(f"{PAGE}?engine=vllm&scheme=%3Cb%3Eno-such%3C/b%3E&hardware=part:h100-sxm")
    _card(browser)
    notice = browser.js("const n = document.querySelector('.atlas-notice'); return [n.textContent, n.children.length]")
    assert notice[1] == 0 and "the scheme \u201c<b>no-such</b>\u201d" in notice[0]  # the link's text, never markup
    browser.open(f"{PAGE}?engine=transformers&format=gguf-q4-k-m&hardware=part:nope")
    _card(browser)
    text = browser.js("return document.querySelector('.atlas-notice').textContent")
    assert "for the format \u201cgguf-q4-k-m\u201d and the hardware \u201cpart:nope\u201d" in text
    pick = "const s = document.querySelector('#atlas-hardware'); s.selectedIndex = 1; s.dispatchEvent(new Event('change'));"
    browser.js(pick)
    assert browser.js("return document.querySelectorAll('.atlas-notice').length") == 0


def test_a_link_naming_hardware_by_its_bare_id_opens_that_part_or_target(browser: Browser) -> None:
    """A hand-written link with hardware=<id> (no part: or target:) once said the atlas did not hold the hardware and
    answered for the first entry of the list; an id that names exactly one part or one target means that record, and
    the address then carries the prefixed form."""
    for engine, scheme, asked, meant in (("vllm", "vllm-fp8-moe", "amd-gfx950", "target:amd-gfx950"),
                                         ("vllm-gaudi", "vllm-gaudi-fp8", "gaudi-2", "part:gaudi-2")):
        browser.open(f"{PAGE}?engine={engine}&scheme={scheme}&hardware={asked}")
        _card(browser)
        assert browser.js("return document.querySelector('#atlas-hardware').value") == meant
        assert browser.js("return document.querySelectorAll('.atlas-notice').length") == 0
        assert parse_qs(urlsplit(browser.driver.current_url).query)["hardware"] == [meant]


def test_a_link_to_a_format_no_scheme_reads_calls_it_a_gap_not_a_typo(browser: Browser, built_site: Path) -> None:
    """A format the atlas holds that no scheme reads yet (read from the index: NF4 was one until it gained a scheme):
    the notice must not call it renamed or mistyped."""
    index = json.loads((built_site / "api" / "index.json").read_text(encoding="utf-8"))
    read = {f for scheme in index["records"]["scheme"] for f in scheme.get("formats", [])}
    unread = sorted(f["id"] for f in index["records"]["format"] if f["id"] not in read)
    if not unread:
        pytest.skip("every format has a scheme")
    browser.open(f"{PAGE}?engine=any&format={unread[0]}&hardware=part:t4")
    _comparison(browser)
    text = browser.js("return document.querySelector('.atlas-notice').textContent")
    assert "records no engine's dispatch rules" in text and "gap in the atlas" in text and "mistyped" not in text


WITHOUT_SCHEMES = """const dropped = %s; const real = window.fetch;
window.fetch = function (url) {
  return real.apply(this, arguments).then(function (r) {
    if (!/data\\/index\\.json$/.test(String(url))) return r;
    return r.json().then(function (doc) {
      doc.records.scheme = doc.records.scheme.filter(function (s) { return dropped.indexOf(s.engine) < 0; });
      return new Response(JSON.stringify(doc), {status: 200, headers: {'Content-Type': 'application/json'}});
    });
  });
};"""


def test_a_link_to_an_engine_without_schemes_calls_it_a_gap_not_a_typo(browser: Browser, built_site: Path) -> None:
    """An engine the atlas holds but none of whose schemes it records is left out of the picker; a link to it once said
    the atlas did not hold it (renamed, removed or mistyped). TensorRT-LLM was such an engine until 2026-12-05 and now
    every engine that runs models has a scheme, so the case is made by serving the page's index without the schemes of
    one engine that runs models and of one kernel library."""
    index = json.loads((built_site / "api" / "index.json").read_text(encoding="utf-8"))
    with_schemes = {scheme["engine"] for scheme in index["records"]["scheme"]}
    engines = sorted(index["records"]["engine"], key=lambda e: e["id"])
    runs = next(e for e in engines if e["category"] in ("serving-engine", "local-runtime") and e["id"] in with_schemes)
    library = next(e for e in engines if e["category"] == "kernel-library")
    added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                           {"source": WITHOUT_SCHEMES % json.dumps([runs["id"], library["id"]])})
    try:
        browser.open(f"{PAGE}?engine={runs['id']}&format=awq&hardware=part:a10")
        _comparison(browser)
        text = browser.js("return document.querySelector('.atlas-notice').textContent")
        assert f"The atlas holds the engine {runs['name']} but records none of its dispatch rules" in text
        assert "gap in the atlas" in text and "does not hold" not in text
        browser.open(f"{PAGE}?engine={library['id']}&format=awq&hardware=part:a10")
        _comparison(browser)
        text = browser.js("return document.querySelector('.atlas-notice').textContent")
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
    assert f"The atlas holds {library['name']}, listed as a kernel library, but no scheme" in text
    # the category is not a claim that the tool runs no models: MLC LLM, listed as a compiler, serves them
    assert "does not hold" not in text and "run models" not in text


def test_a_link_to_a_part_no_target_stands_for_says_the_atlas_holds_it(browser: Browser, built_site: Path) -> None:
    """A part the atlas holds without a hardware target (no compute capability recorded: the RTX 3090 Ti) is left out
    of the picker; a link to it once said the atlas did not hold it (renamed, removed or mistyped)."""
    index = json.loads((built_site / "api" / "index.json").read_text(encoding="utf-8"))
    parts = [a for a in index["records"]["accelerator"] if not a.get("target")]
    if not parts:
        pytest.skip("every part has a hardware target")
    browser.open(f"{PAGE}?engine=llama-cpp&format=gguf-q4-k-m&hardware=part:{parts[0]['id']}")
    _card(browser)
    text = browser.js("return document.querySelector('.atlas-notice').textContent")
    assert f"The atlas holds {parts[0]['name']} but no hardware target" in text and "does not hold" not in text


EMULATED_CASES = [  # (scheme, hardware, target, what the card says the kernel does with the format there)
    # the format map rates MXFP4 emulated on a part of it; oneDNN converts it (which type, not read)
    ("vllm-ct-w4a4-mxfp4", "target:intel-gpu", "intel-gpu", "XPUMxFp4LinearKernel converts it to a wider precision first"),
    # INT8 W8A8: no INT8 peak or matrix instruction on Volta; MMVQ and MMQ multiply the bytes with DP4A
    ("llama-cpp-q4-k", "part:v100", "nvidia-sm70", "MMVQ and MMQ multiply it as it is with vector instructions (__dp4a)"),
    ("llama-cpp-q4-k", "part:rtx-4090", "nvidia-sm89", None),  # native INT8: nothing to say
    # FP8 E4M3 or MXFP8: Hopper emulates MXFP8 but runs E4M3, which may be the one computing: nothing to say
    ("vllm-fp8-block", "part:h100-sxm", "nvidia-sm90", None),
    # the B580 states no peak; its Xe2 DPAS takes FP16 and BF16, not FP8: converted, as on the B60 (a BF16 rate)
    ("vllm-ct-w8a8-fp8", "part:arc-b580", "intel-gpu", "XPUW8A8FP8LinearKernel converts it to a wider precision first"),
    # no figures on either part: their targets state no FP8 matrix instruction (Triton widens to FP32 FMA, FP16 WMMA)
    ("vllm-fp8-block", "part:radeon-pro-vii", "amd-gfx906",
     "TritonFp8BlockScaledMMKernel converts it to FP32 first and multiplies it with vector instructions (v_fma_f32)"),
    ("vllm-fp8-block", "target:amd-gfx1151", "amd-gfx1151", "TritonFp8BlockScaledMMKernel converts it to FP16 first "
     "and multiplies it with matrix instructions (v_wmma_f32_16x16x16_f16)"),
    # gfx906 has no matrix instruction at all: INT8 takes the sdot4 vector instruction (v_dot4_i32_i8), so it is not native
    ("llama-cpp-q4-k", "part:radeon-pro-vii", "amd-gfx906",
     "MMVQ and MMQ multiply it as it is with vector instructions (__builtin_amdgcn_sdot4)"),
    # gfx1151 has an INT8 WMMA: native, nothing to say
    ("llama-cpp-q4-k", "part:radeon-8060s-gfx1151", "amd-gfx1151", None),
    # nor FP16 or BF16 on gfx906, which has no MFMA or WMMA: the Triton W4A16 GEMM computes in them on vector units; its
    # record states no way there, so the card says only that it is one of the two
    ("vllm-ct-wna16", "part:radeon-pro-vii", "amd-gfx906", "the kernel converts it to a wider precision first, or "
     "multiplies it as it is with vector instructions (DP4A's integer dot products among them)"),
    # gfx1151 has the FP16 and BF16 WMMA: native, nothing to say
    ("vllm-ct-wna16", "part:radeon-8060s-gfx1151", "amd-gfx1151", None),
    # OCP FP8 E4M3 on Gaudi 2, whose E4M3 reaches 240: vLLM-Gaudi halves the weights and doubles their scales
    ("vllm-gaudi-fp8", "part:gaudi-2", "intel-gaudi2", "HPUPerTensorTorchFP8ScaledMMLinearKernel and apply_fp8_linear_hpu "
     "rescales it and its scales into the part's own FP8 encoding first and multiplies it in that encoding "
     "(torch.ops.hpu.fp8_gemm_v2)"),
    # Gaudi 3 has OCP E4M3: native, nothing to say
    ("vllm-gaudi-fp8", "part:gaudi-3", "intel-gaudi3", None),
]


def test_the_card_says_which_format_it_computes_in_the_part_only_emulates(browser: Browser, built_site: Path,
                                                                          cells: dict, names: dict,
                                                                          computed_in: dict) -> None:
    """Read from the data API, not typed: the parts of the pick the format map rates the cell's formats emulated on;
    typed: how the kernel computing in the format says it computes it there (its without_matrix_instruction). The
    first case is opened by its link, each next one picked in the page's lists from the last one's comparison (one
    load of the page instead of thirteen, each a third to half a second of Chromium's time)."""
    accelerators = json.loads((built_site / "api/format-map.json").read_text(encoding="utf-8"))["accelerators"]
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))["records"]
    for n, (scheme, hardware, target, how) in enumerate(EMULATED_CASES):
        _says_which_format_it_computes_in(browser, accelerators, index, cells, names, computed_in, n, scheme, hardware,
                                          target, how)


def _says_which_format_it_computes_in(browser: Browser, accelerators: list, index: dict, cells: dict, names: dict,
                                      computed_in: dict, n: int, scheme: str, hardware: str, target: str,
                                      how: str | None) -> None:
    says = how is not None
    kind, _, pick = hardware.partition(":")
    parts = [pick] if kind == "part" else next(t["accelerators"] for t in index["hardware-target"] if t["id"] == pick)
    formats = cells[(scheme, target)]["computes_in"]  # a part is named where every one of them is emulated
    expected = [(f, [names[f"accelerator/{a['id']}"] for a in accelerators
                     if a["id"] in parts and all(g in a["emulated"] for g in formats)]) for f in formats]
    engine = next(s["engine"] for s in index["scheme"] if s["id"] == scheme)
    if n:
        _pick(browser, engine=engine, scheme=scheme, hardware=hardware)
    else:
        browser.open(f"{PAGE}?engine={engine}&scheme={scheme}&hardware={hardware}")
    _card(browser)
    said = browser.js("return [...document.querySelectorAll('.atlas-card__emulated')].map(e => e.textContent)")
    assert said == [f"the format map rates {computed_in[f]} emulated on {', '.join(on)}: it records no dense peak "
                    f"or matrix instruction in it there, so no matrix unit of the part multiplies it as it is; {how}"
                    for f, on in expected if on], (scheme, hardware)
    assert bool(said) == says, (scheme, hardware)  # the cases above say something, or nothing, as chosen
    # the comparison of every engine (switched to in the page: it keeps the scheme's first format and the hardware)
    # marks the same row, briefly
    format_id = next(s["formats"][0] for s in index["scheme"] if s["id"] == scheme)  # a checkpoint format it reads
    _pick(browser, engine="any")
    assert _comparison(browser)["format"] == format_id, (scheme, hardware)
    assert _query(browser) == {"engine": ["any"], "format": [format_id], "hardware": [hardware]}
    marked = browser.js("return [...document.querySelectorAll('.atlas-compare tbody tr')]"
                        ".filter(tr => tr.querySelector('.atlas-compare__emulated')).map(tr => tr.dataset.scheme)")
    assert (scheme in marked) == bool(said), (scheme, hardware)


def test_the_comparison_reads_on_a_phone(browser: Browser) -> None:
    browser.open(f"{PAGE}?engine=any&format=fp8-e4m3&hardware=part:h100-sxm", PHONE)
    _comparison(browser)
    cells = browser.js("return [...document.querySelectorAll('.atlas-compare tbody tr:first-child td')]"
                       ".map(td => [td.dataset.label, getComputedStyle(td).display])")
    assert cells == [[name, "block"] for name in ("Engine", "Scheme", "Verdict", "Kernel", "Computes in", "Traps")]
    assert browser.js("return document.documentElement.scrollWidth") <= PHONE[0]
    # the answer starts on the first screen: the page's explanation, examples and the engines it cannot answer for
    # come after it (they pushed it 250 px below the fold)
    assert browser.js("return document.querySelector('.atlas-compare').getBoundingClientRect().top") < PHONE[1]
    browser.screenshot("selector-compare-390")


def test_a_comparison_row_counts_a_part_trap_only_on_that_part(browser: Browser, built_site: Path, cells: dict) -> None:
    """GB10 and the RTX 5090 share a target; the trap that names GB10 alone counts in its row only, as on the card."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    parts_of = {g["id"]: g.get("accelerators") or [] for g in index["records"]["gotcha"]}
    browser.open(f"{PAGE}?engine=any&format=w4a16-int4&hardware=part:rtx-5090")
    for part, listed in [("rtx-5090", False), ("gb10-dgx-spark", True)]:
        _pick(browser, hardware=f"part:{part}")
        (row,) = [r for r in _comparison(browser)["rows"] if r["scheme"] == "vllm-ct-wna16"]
        on_target = cells[("vllm-ct-wna16", "nvidia-sm120")]["traps"]
        reaching = [t for t in on_target if not parts_of[t] or part in parts_of[t]]
        assert ("vllm-marlin-input-dtype-fp8-sm121a-garbage" in reaching) is listed
        assert row["trapCount"] == len(reaching) and len(reaching) < len(on_target) + listed


TRAP_LINKS = """
const box = document.querySelector('#atlas-answer .atlas-compare');
if (!box) return null;
return Object.fromEntries([...box.querySelectorAll('tbody tr')].map(tr => [tr.dataset.scheme, {
  verdict: tr.cells[2].querySelector('a.atlas-compare__answer')?.href || null,
  traps: [...tr.cells[5].querySelectorAll('.atlas-compare__traps')].map(t => [t.href || null,
    +t.textContent.match(/(\\d+) traps?/)[1]])}]));
"""


def test_a_comparison_row_s_trap_count_leads_to_the_answer_that_lists_them(browser: Browser) -> None:
    """A row's trap count named its traps in a tooltip alone, which a phone never shows and a reader cannot follow:
    the count now links to the row's full answer, as its verdict does, and that answer lists as many traps."""
    browser.open(f"{PAGE}?engine=any&format=awq&hardware=part:t4")
    row = _shown(browser, TRAP_LINKS, "comparison")["vllm-awq-marlin"]
    ((href, count),) = row["traps"]
    assert href == row["verdict"] and "scheme=vllm-awq-marlin" in href and count > 1
    browser.js("document.querySelector('tr[data-scheme=\"vllm-awq-marlin\"] .atlas-compare__traps').click()")
    listed = _shown(browser, "const l = document.querySelector('#atlas-answer .atlas-card .atlas-card__traps');"
                             "return l && location.search.includes('scheme=vllm-awq-marlin') ? l.children.length : null",
                    "answer card")
    assert listed == count

COMPARE_TRAPS = """
const box = document.querySelector('#atlas-answer .atlas-compare');
if (!box) return null;
return Object.fromEntries([...box.querySelectorAll('tbody tr')].map(tr => [tr.dataset.scheme,
  [...tr.cells[5].querySelectorAll('.atlas-compare__traps')].map(s => [s.dataset.parts,
    s.querySelector('.atlas-severity').textContent, !!s.querySelector('.atlas-silent'),
    [...s.childNodes].filter(n => !n.matches || !n.matches('.atlas-severity, .atlas-silent')).map(n => n.textContent).join('')
    ])]));
"""


def test_a_comparison_on_a_target_counts_a_trap_on_one_part_apart_and_names_the_part(browser: Browser, built_site: Path,
                                                                                      cells: dict, names: dict) -> None:
    """MLX's sm_100a-only wheels' blocker stops the B300 (10.3) alone among SM 10.x's parts. The answer card says so;
    the comparison on the target counted such a trap as "blocker 1 trap", as if it hit every part (and counted the
    Marlin sm121a trap among vLLM's four on SM 12.x). A row now counts the traps on every part, then, apart, those on
    some parts only, with those parts (api: trap_parts), as the card names them. (The first example was the
    onnxruntime-gpu wheel's GB10 blocker until trt48 read the aarch64 wheel, which has code for the GB10.)"""
    gb10 = names["accelerator/gb10-dgx-spark"]
    b300 = names["accelerator/b300"]
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    gotchas = {g["id"]: g for g in index["records"]["gotcha"]}
    trap = "mlx-cuda-wheels-sm100a-only-no-code-for-b300"
    assert cells[("mlx-lm-affine-4", "nvidia-sm100")]["trap_parts"] == [{"trap": trap, "parts": ["b300"]}]
    browser.open(f"{PAGE}?engine=any&format=mlx-affine&hardware=target:nvidia-sm100")
    shown = _shown(browser, COMPARE_TRAPS, "comparison")
    assert shown["mlx-lm-affine-4"] == [[b300, "blocker", False, f" 1 trap on this target's {b300} only"]]
    _pick(browser, engine="any", scheme="format:w4a16-int4", hardware="target:nvidia-sm120")
    shown = _shown(browser, COMPARE_TRAPS, "comparison")
    cell = cells[("vllm-ct-wna16", "nvidia-sm120")]
    limited = [p["trap"] for p in cell["trap_parts"]]
    assert [p["parts"] for p in cell["trap_parts"]] == [["gb10-dgx-spark"]] * len(limited) and limited
    whole = [t for t in cell["traps"] if t not in limited]

    def said(ids: list[str], parts: str) -> list:
        worst = min((gotchas[t]["severity"] for t in ids), key=["blocker", "major", "minor"].index)
        return [parts, worst, any(gotchas[t]["silent"] for t in ids),
                f" {len(ids)} {'trap' if len(ids) == 1 else 'traps'}" + (f" on this target's {parts} only" if parts else "")]
    assert shown["vllm-ct-wna16"] == [said(whole, ""), said(limited, gb10)]
    # on a part the row counts what reaches it, in one count: the GB10's traps on the GB10, none of them on the 5090
    _pick(browser, hardware="part:gb10-dgx-spark")
    assert _shown(browser, COMPARE_TRAPS, "comparison")["vllm-ct-wna16"] == [said(cell["traps"], "")]
    _pick(browser, hardware="part:rtx-5090")
    assert _shown(browser, COMPARE_TRAPS, "comparison")["vllm-ct-wna16"] == [said(whole, "")]
    assert browser.console_errors() == []


HOST = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card) return null;
const host = card.querySelector('.atlas-card__host');
return {verdict: card.dataset.verdict, needs: host ? [...host.querySelectorAll('li')].map(li => li.textContent) : [],
        heading: host ? host.closest('section').querySelector('h3').textContent : ''};
"""


def test_a_part_that_needs_more_than_its_target_says_so_first(browser: Browser, cells: dict) -> None:
    """GB10 and the RTX 5090 share a target; ExLlamaV2's extension builds on x86_64 hosts only, and the GB10 comes with
    its Arm host, so its card says so before the conditions the target's cell states (api: on_parts); likewise a part
    whose own compute capability the default install's binaries do not cover."""
    cell = cells[("exllamav2-exl2-4", "nvidia-sm120")]
    (on_gb10,) = [p for p in cell["on_parts"] if p["part"] == "gb10-dgx-spark"]
    browser.open(f"{PAGE}?engine=exllamav2&scheme=exllamav2-exl2-4&hardware=part:gb10-dgx-spark")
    card = _shown(browser, HOST, "answer card")
    assert card["verdict"] == on_gb10["verdict"] and card["heading"] == "First, on this part" and "aarch64" in card["needs"][0]
    assert [n.split(" (")[0] for n in card["needs"]] == [c.split(" (")[0] for c in on_gb10["conditions"]]
    assert "x86_64 hosts only" in card["needs"][0]
    _pick(browser, hardware="part:rtx-5090")
    assert _shown(browser, HOST, "answer card")["needs"] == []
    # a part of a later minor than its target: MLX's sm_100a cubins run on 10.0 alone, and the B300 is 10.3
    (on_b300,) = [p for p in cells[("mlx-lm-nvfp4", "nvidia-sm100")]["on_parts"] if p["part"] == "b300"]
    _pick(browser, engine="mlx-lm", scheme="mlx-lm-nvfp4", hardware="part:b300")
    card = _shown(browser, HOST, "answer card")
    assert card["verdict"] == on_b300["verdict"] and card["needs"][0].startswith(on_b300["conditions"][0])
    assert "compute capability 10.3" in card["needs"][0]
    # the comparison of that format on the B300 marks the row whose answer needs more on this part, and says why
    _pick(browser, engine="any", scheme="format:w4a16-nvfp4", hardware="part:b300")
    marked = _shown(browser, "const rows = [...document.querySelectorAll('#atlas-answer .atlas-compare tbody tr')];"
                    "if (!rows.length) return null; return rows.filter(r => r.querySelector('.atlas-compare__part'))"
                    ".map(r => [r.dataset.scheme, r.querySelector('.atlas-compare__part').title]);", "comparison")
    assert [s for s, _ in marked] == ["mlx-lm-nvfp4"] and marked[0][1].startswith(on_b300["conditions"][0][:40])


DEFAULTS = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card) return null;
const items = title => {
  const h = [...card.querySelectorAll('h3')].find(h => h.textContent === title);
  const said = li => {  // without the folded install route
    const c = li.cloneNode(true); c.querySelectorAll('details.atlas-card__route').forEach(d => d.remove()); return c.textContent;
  };
  return h ? [...h.parentElement.querySelectorAll(':scope > ul > li')].map(said) : [];
};
return {met: items('Met by the defaults (default install and settings)'),
        further: items("Further down the engine's order, the defaults meet")};
"""


def test_a_condition_the_defaults_meet_for_a_later_kernel_is_said_with_that_kernel(browser: Browser, cells: dict,
                                                                                   names: dict) -> None:
    """vLLM's FP8 block scheme on an A100 selects FP8 Marlin; humming-kernels, which the wheel requires, is a condition
    of the Humming kernel the engine reaches only when Marlin's condition fails. The card does not list it as what the
    answer's kernel needs: it says it after what happens then, naming the kernel whose condition it is (cards30)."""
    cell = cells[("vllm-fp8-block", "nvidia-sm80")]
    assert cell["kernel"] == "vllm-marlin-fp8-scaled-mm"
    assert [a["condition"] for a in cell["assumes"]] == ["package humming-kernels installed"]
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-fp8-block&hardware=part:a100-80gb-sxm4")
    card = _shown(browser, DEFAULTS, "answer card")
    humming = names["kernel/vllm-humming-fp8-scaled-mm"]
    assert card["met"] == []
    assert card["further"] == [f"package humming-kernels installed (a condition of {humming}): {cell['assumes'][0]['install']}"]
    # the conditions of the answer's own kernel stay where they were: compressed-tensors W8A8 FP8 on an A100 selects
    # the Humming kernel itself, and the defaults meet both its conditions (the package, and --dtype auto's 16 bits)
    own = cells[("vllm-ct-w8a8-fp8", "nvidia-sm80")]
    assert own["kernel"] == "vllm-humming-fp8-scaled-mm" and all(a["condition"] in own["conditions"] for a in own["assumes"])
    _pick(browser, scheme="vllm-ct-w8a8-fp8")
    card = _shown(browser, DEFAULTS, "answer card")
    assert ([m.split(": ")[0] for m in card["met"]], card["further"]) == ([a["condition"] for a in own["assumes"]], [])
    assert browser.console_errors() == []


SETTINGS = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card) return null;
const items = title => {
  const h = [...card.querySelectorAll('h3')].find(h => h.textContent === title);
  return h ? [...h.parentElement.querySelectorAll(':scope > ul > li, :scope > ol > li')].map(li => li.textContent) : [];
};
return {open: items('Conditions'), met: items('Met by the defaults (default install and settings)').map(t => t.split(': ')[0]),
        worse: items('Settings that make this worse')};
"""


def test_a_setting_card_says_what_the_defaults_meet_and_a_running_card_what_a_setting_makes_worse(
        browser: Browser, cells: dict, names: dict) -> None:
    """MXFP4 on an RTX 5090 runs only given --linear-backend humming; humming-kernels comes with vLLM's CUDA wheel and
    --dtype auto gives 16 bits, so those are said as met, and the setting is the one condition left (cards32). FP8 W8A8
    on an H100 runs through CUTLASS by default; the card lists the --linear-backend values that make it worse, from
    the same filtered walk (api/cells.json `worse`)."""
    cell = cells[("vllm-ct-w4a4-mxfp4", "nvidia-sm120")]
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w4a4-mxfp4&hardware=part:rtx-5090")
    card = _shown(browser, SETTINGS, "answer card")
    assert card["open"] == [cell["conditions"][0]] and card["open"][0].startswith("--linear-backend humming")
    assert "package humming-kernels installed" in card["met"] and "activation dtype in {float16, bfloat16}" in card["met"]
    assert card["worse"] == []
    sm90 = cells[("vllm-ct-w8a8-fp8", "nvidia-sm90")]
    _pick(browser, scheme="vllm-ct-w8a8-fp8", hardware="part:h100-sxm")
    card = _shown(browser, SETTINGS, "answer card")
    assert [w.split(": ")[0] for w in card["worse"]] == [w["setting"] for w in sm90["worse"]]
    marlin = next(w for w in card["worse"] if w.startswith("--linear-backend marlin: "))
    assert marlin.startswith(f"--linear-backend marlin: falls back (the engine selects {names['kernel/vllm-marlin-fp8-scaled-mm']}): ")
    assert "weight-only" in marlin
    assert browser.console_errors() == []


RELATED = """
const line = document.querySelector('#atlas-answer .atlas-compare .atlas-compare__related');
const box = document.querySelector('#atlas-answer .atlas-compare');
if (!box) return null;
return {format: box.dataset.format, related: line ? [...line.querySelectorAll(':scope > span')].map(span => ({
  href: span.querySelector('a').getAttribute('href'),
  verdicts: [...span.querySelectorAll('.atlas-verdict')].map(v => [v.className.split('--').pop(),
                                                                    Number(v.nextSibling.textContent.trim())])})) : []};
"""


def test_a_format_with_no_answer_here_shows_its_related_formats_answers_and_opens_them(browser: Browser, built_site: Path,
                                                                                       cells: dict) -> None:
    """MXFP4 on an Apple M4 Max: vLLM's W4A4 scheme is refused, but a weight-only MXFP4 checkpoint (gpt-oss) runs
    through MLX-LM: the card counts each related format's verdicts on this part, as its own comparison would, and
    links to that comparison."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    formats = {f["id"]: f for f in index["records"]["format"]}
    read = {f for s in index["records"]["scheme"] for f in s["formats"]}
    target = next(a["target"] for a in index["records"]["accelerator"] if a["id"] == "apple-m4-max")
    browser.open(f"{PAGE}?engine=any&format=mxfp4&hardware=part:apple-m4-max")
    shown = _shown(browser, RELATED, "comparison")
    expected = []
    for related in formats["mxfp4"]["related"]:
        verdicts = [_shown_as(cells[(s["id"], target)]) for s in index["records"]["scheme"]
                    if related in s["formats"] and (s["id"], target) in cells]
        if related in read and verdicts:
            expected.append((f"?engine=any&format={related}&hardware=part%3Aapple-m4-max",
                             [[v, verdicts.count((v, when))] for v, when in
                              sorted(set(verdicts), key=lambda k: (ORDER.index(k[0]), k[1]))]))
    assert [(r["href"], r["verdicts"]) for r in shown["related"]] == expected
    weight_only = dict(expected)["?engine=any&format=w4a16-mxfp4&hardware=part%3Aapple-m4-max"]
    assert weight_only[0][0] == "runs"  # the answer the reader with a gpt-oss checkpoint needs, on the first screen
    browser.js("document.querySelector('.atlas-compare__related a[href*=\"w4a16-mxfp4\"]').click()")
    _shown(browser, "const box = document.querySelector('#atlas-answer .atlas-compare');"
                    "return box && box.dataset.format === 'w4a16-mxfp4' ? true : null;", "weight-only MXFP4 comparison")


SOURCES = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card) return null;
const fold = card.querySelector('.atlas-card__sources-passed');
const paths = list => list ? [...list.querySelectorAll(':scope > li > a:first-child')].map(a => a.pathname) : [];
return {groups: [...card.querySelectorAll('.atlas-card__source-group')].map(g => ({backs: g.dataset.backs,
          label: g.querySelector('.atlas-card__source-backs').textContent,
          links: [...g.querySelectorAll('.atlas-card__source-backs a')].map(a => a.pathname),
          sources: paths(g.querySelector('ul.atlas-card__sources')),
          again: g.querySelectorAll('li.atlas-card__source-again').length})),
        open: fold ? fold.open : null, summary: fold ? fold.querySelector('summary').textContent : '',
        kernels: paths(fold && fold.querySelector('ul.atlas-card__sources')),
        folded: fold ? [...fold.querySelectorAll('ul ul a:first-child')].map(a => a.pathname)
                       .filter(p => p.startsWith('/sources/')) : []};
"""


def test_a_card_lists_the_verdicts_sources_first_and_folds_those_of_the_kernels_it_passes_over(browser: Browser,
                                                                                               cells: dict) -> None:
    """vLLM's FP8 block scheme on an H100: the sources of the kernel that computes (FlashInfer with DeepGEMM) and of the
    one a default install selects (DeepGEMM) stand in the open groups with the scheme's; CUTLASS, B12x, Humming, Marlin
    and Triton, passed over here, have theirs folded under a closed summary, each under its kernel. Together the groups
    (but the traps') and the fold show every source of the answer, and nothing else."""
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-fp8-block&hardware=part:h100-sxm")
    _card(browser)
    shown = browser.js(SOURCES)
    cell = cells[("vllm-fp8-block", "nvidia-sm90")]
    passed = {g["kernel"]: g["sources"] for g in cell["sources_passed_over"]}
    verdict = {p for g in shown["groups"] if g["backs"] != "trap" for p in g["sources"]}
    assert cell["kernel"] not in passed and cell["default_kernel"] not in passed
    assert "vllm-cutlass-fp8-block-scaled-mm" in passed and "vllm-triton-fp8-block-scaled-mm" in passed
    assert "/sources/vllm-src-smm-deep-gemm/" in verdict and "/sources/vllm-src-smm-cutlass/" not in verdict
    assert "/sources/vllm-src-smm-cutlass/" in shown["folded"] and shown["open"] is False
    assert shown["kernels"] == [f"/kernels/{k}/" for k in passed]
    assert shown["summary"].startswith(f"{sum(map(len, passed.values()))} more sources of the {len(passed)} kernels ")
    assert verdict | set(shown["folded"]) == {f"/sources/{s}/" for s in cell["sources"]}
    assert browser.console_errors() == []


def test_a_card_says_which_source_backs_which_statement(browser: Browser, cells: dict) -> None:
    """The sources were one flat list: which backs the kernel's selection, which a condition, which a trap, a reader
    could not tell. Each group now says what it backs (api: source_groups, from the record fields that cite them): the
    selection first, each kernel linked, each condition quoted, each trap linked with the trap's own sources; a source
    that backs several is listed in each group, in full only the first time."""
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w4a4-nvfp4&hardware=target:nvidia-sm120")
    _card(browser)
    shown = browser.js(SOURCES)
    cell = cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm120")]
    expected = [g for g in cell["source_groups"] if g["backs"] != "passed-over"]
    assert [(g["backs"], g["sources"]) for g in shown["groups"]] == [
        (g["backs"], [f"/sources/{s}/" for s in g["sources"]]) for g in expected]
    groups = {(g["backs"], n): g for n, g in enumerate(shown["groups"])}
    assert shown["groups"][0]["backs"] == "selection" and "selects for this scheme" in shown["groups"][0]["label"]
    assert any(g["links"] == [f"/kernels/{cell['kernel']}/"] for (backs, _), g in groups.items() if backs == "kernel")
    said = [g["label"] for (backs, _), g in groups.items() if backs == "condition"]
    assert said and all(c in " ".join(said) for c in (a["condition"] for a in cell["opt_in"]))
    (trap,) = cell["traps"]
    (group,) = [g for (backs, _), g in groups.items() if backs == "trap"]
    own = yaml.safe_load((RECORDS / "gotchas" / f"{trap}.yaml").read_text(encoding="utf-8"))["sources"]
    assert group["links"] == [f"/gotchas/{trap}/"]
    assert group["sources"] == [f"/sources/{s}/" for s in dict.fromkeys(c["source"] for c in own)]
    assert sum(g["again"] for g in shown["groups"]) > 0
    assert browser.console_errors() == []


def test_the_comparison_says_a_fallback_s_precision_short(browser: Browser, cells: dict) -> None:
    """Marlin MoE's row showed the kernel's whole computes note, the FP8 oracle on an NVFP4 row. The cell says the
    precision short, read from typed fields (api: computes_short); the full note stays on the answer the row links."""
    cell = cells[("vllm-ct-w4a4-nvfp4-moe", "nvidia-sm80")]
    assert "FP8 oracle" in cell["computes_as"] and cell["computes_short"]["way"] == "weight-only"
    for size in (DESKTOP, PHONE):
        browser.open(f"{PAGE}?engine=any&format=nvfp4&hardware=target:nvidia-sm80", size)
        _comparison(browser)
        said = browser.js("return document.querySelector('tr[data-scheme=\"vllm-ct-w4a4-nvfp4-moe\"] "
                          "td[data-label=\"Computes in\"]').textContent")
        assert said == " or ".join(cell["computes_short"]["precisions"]) + ", weight-only (activations not quantized)"
        assert browser.js("return document.documentElement.scrollWidth") <= size[0]
    assert browser.console_errors() == []


def test_a_card_links_the_first_use_of_a_glossary_term(browser: Browser, cells: dict) -> None:
    """vLLM's type name float4_e2m1f stood unexplained in an NVFP4 fallback's "Computes in": its first use on the card
    links to the glossary's entry (a term record), once."""
    assert "float4_e2m1f" in cells[("vllm-ct-w4a4-nvfp4", "nvidia-sm80")]["computes_as"]
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w4a4-nvfp4&hardware=target:nvidia-sm80")
    _card(browser)
    links = browser.js("return [...document.querySelectorAll('#atlas-answer .atlas-card a.atlas-term')]"
                       ".map(a => [a.textContent, a.pathname])")
    assert [link for link in links if link[0] == "float4_e2m1f"] == [["float4_e2m1f", "/terms/float4-e2m1f/"]]
    assert browser.console_errors() == []


def test_a_card_links_no_glossary_term_inside_an_engine_message(browser: Browser, cells: dict) -> None:
    """vLLM's refusal of GPTQ Marlin on SM 7.0 is its message as printed ("Marlin does not support weight_bits = ..."):
    the card linked its "Marlin" to the glossary, inside the engine's words. A reason is never linked inside."""
    cell = cells[("vllm-gptq-marlin", "nvidia-sm70")]
    assert cell["verdict"] == "refused" and any(r.startswith("Marlin does not support") for r in cell["reasons"])
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-gptq-marlin&hardware=target:nvidia-sm70")
    _card(browser)
    inside = browser.js("return [...document.querySelectorAll('#atlas-answer .atlas-card__why-not a.atlas-term,"
                        " #atlas-answer .atlas-otherwise__reasons a.atlas-term')].map(a => a.textContent)")
    shown = browser.js("return document.querySelector('#atlas-answer .atlas-card__why-not').textContent")
    assert "Marlin does not support" in shown and inside == []
    assert browser.console_errors() == []


WITH_CONDITION = """const added = %s; const real = window.fetch;
window.fetch = function (url) {
  return real.apply(this, arguments).then(function (r) {
    if (!/data\\/targets\\/nvidia-sm80\\.json$/.test(String(url))) return r;
    return r.json().then(function (doc) {
      doc.cells.forEach(function (c) { if (c.scheme === added.scheme) { c.conditions = [added.condition].concat(c.conditions); } });
      return new Response(JSON.stringify(doc), {status: 200, headers: {'Content-Type': 'application/json'}});
    });
  });
};"""


def test_a_card_links_no_glossary_term_inside_an_engine_message_a_condition_quotes(browser: Browser,
                                                                                   built_site: Path) -> None:
    """A condition can quote an engine's message verbatim (a check in the engine's words only: "passes the check that
    otherwise refuses with" the message, cells.py condition_text): the card linked the first "Marlin" inside vLLM's
    "Marlin FP4 not available". The data index serves each term's verbatim stretches (`quoted`); the card links the
    first use outside them. No condition today quotes a message with a spelling in it, so the page's data is given one
    on a real cell."""
    index = json.loads((built_site / "can-i-run-it" / "data" / "index.json").read_text(encoding="utf-8"))
    marlin = next(t for t in index["records"]["term"] if "Marlin" in t["spellings"])
    message = "Marlin FP4 not available"
    assert message in marlin["quoted"]
    condition = f"the layer passes the check that otherwise refuses with \u201c{message}\u201d, so Marlin runs"
    added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WITH_CONDITION % json.dumps(
        {"scheme": "vllm-gguf-q4-k", "condition": condition})})
    try:
        browser.open(f"{PAGE}?engine=vllm&scheme=vllm-gguf-q4-k&hardware=target:nvidia-sm80")
        _card(browser)
        item = browser.js("return [...document.querySelectorAll('#atlas-answer .atlas-card li')]"
                          ".filter(li => li.textContent.indexOf(arguments[0]) >= 0).map(li => li.innerHTML)", message)
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
    assert len(item) == 1 and f"\u201c{message}\u201d, so <a " in item[0], item
    assert item[0].endswith('>Marlin</a> runs') and item[0].count("atlas-term") == 1
    assert browser.console_errors() == []


@pytest.mark.parametrize("scheme, hardware, target", [
    ("llama-cpp-q4-k", "part:mi250x", "amd-gfx90a"),  # INT8 in MMVQ and MMQ, then FP16 in the cuBLAS path
    ("llama-cpp-q4-k", "part:arc-b580", "intel-gpu"),  # FP32 (DMMV), INT8 (MMVQ), FP32 or, built FP16, FP16 (GEMM)
])
def test_the_card_says_what_each_kernel_step_computes_in(browser: Browser, cells: dict, computed_in: dict, scheme: str,
                                                         hardware: str, target: str) -> None:
    """Read from the data API, not typed: one line per step of the route, each with its formats or the precision its
    kernels multiply dequantized weights in, and the kernels that take it, in the engine's order; where a setting
    chooses the precision (llama.cpp's GGML_SYCL_F16 build of the SYCL GEMM), the line goes on with each other value
    and the precision it gives, and the setting's note follows it."""
    steps = cells[(scheme, target)]["computes_steps"]
    assert len(steps) > 1
    browser.open(f"{PAGE}?engine=llama-cpp&scheme={scheme}&hardware={hardware}")
    _card(browser)
    said = browser.js("return [...document.querySelectorAll('.atlas-card__steps > li')].map(e => {"
                      " const line = e.cloneNode(true); line.querySelectorAll('.atlas-card__setting')"
                      ".forEach(p => p.remove()); return line.textContent; })")
    assert not any(s["precision"].startswith("int") for s in steps)  # an integer one is worded otherwise (below)
    expected = [(s["precision"].upper() + " after dequantizing the weights" if s["precision"] else
                 " or ".join(computed_in[f] for f in s["formats"])) + " (" + ", ".join(s["labels"]) + ")"
                for s in steps]
    assert [line[:len(e)] for line, e in zip(said, expected)] == expected and len(said) == len(expected)
    for line, e, step in zip(said, expected, steps):
        setting = step["setting"]
        others = [f"{o['precision'].upper()} with {setting['name']} {o['value']}" for o in setting["others"]] if setting else []
        assert line == e if not setting else all(o in line[len(e):] for o in others), line
    assert any(s["setting"] for s in steps) == (target == "intel-gpu")


NEEDS = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card) return null;
const h = [...card.querySelectorAll('h3')].find(h => h.textContent === 'Also needed at run time');
const items = root => [...root.querySelectorAll('.atlas-card__needs > li')].map(li =>
  [li.textContent, [...li.querySelectorAll('a')].map(a => a.pathname)]);
const steps = [...card.querySelectorAll('.atlas-otherwise__step')];
return {top: h ? items(h.parentElement) : [], steps: steps.map(items)};
"""


def test_what_a_kernel_on_the_route_needs_that_the_engine_does_not_check_is_said_with_its_source(
        browser: Browser, cells: dict, names: dict) -> None:
    """Read from the data API (api: needs): vLLM's MXFP4 emulation on ROCm builds amd-quark's extension on first use,
    which needs a host C++ compiler. Where the emulation is the answer's kernel (an MI300X) the need is said under its
    own heading with the kernel and the source that says it; where it is reached only when AITER is missing (an
    MI355X), with that step; a CUDA answer says none. Triton's C compiler, which vLLM's own GPU model runners bring in
    on every start, is said once under the heading, first, naming the engine and the tool (tritoncc33)."""
    triton, need = cells[("vllm-ct-w4a4-mxfp4", "amd-gfx942")]["needs"]
    said = f"{need['said']} ({names['kernel/' + need['kernel']]}; {names['source/' + need['source']]})"
    compiler = (f"{triton['said']} ({names['engine/vllm']}, on every start, through {names['engine/triton']}; "
                f"{names['source/' + triton['source']]})")
    first = [compiler, ["/engines/vllm/", "/engines/triton/", f"/sources/{triton['source']}/"]]
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w4a4-mxfp4&hardware=part:mi300x")
    card = _shown(browser, NEEDS, "answer card")
    assert card["top"] == [first, [said, [f"/kernels/{need['kernel']}/", f"/sources/{need['source']}/"]]]
    assert all(step == [] for step in card["steps"])
    assert cells[("vllm-ct-w4a4-mxfp4", "amd-gfx950")]["needs"] == [triton, need]
    _pick(browser, hardware="part:mi355x")
    card = _shown(browser, NEEDS, "answer card")
    assert card["top"] == [first] and card["steps"][0] == [[said, [f"/kernels/{need['kernel']}/", f"/sources/{need['source']}/"]]]
    _pick(browser, hardware="part:b200")
    assert _shown(browser, NEEDS, "answer card")["top"] == [first]


SETTING = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card) return null;
const dt = [...card.querySelectorAll('dt')].find(dt => dt.textContent === 'Computes in');
if (!dt) return {};
const li = dt.nextElementSibling.querySelector('.atlas-card__steps > li');
const note = li.querySelector('.atlas-card__setting');
const c = note.cloneNode(true); c.querySelectorAll('details').forEach(d => d.remove());
const head = [...li.childNodes].filter(n => n !== note).map(n => n.textContent).join('');
return {step: li.firstChild.textContent, head: head, note: c.textContent.trim(), where: note.querySelector('details span').textContent};
"""


def test_where_a_setting_chooses_the_precision_the_card_says_which_value_it_is_for(browser: Browser, cells: dict) -> None:
    """transformers bitsandbytes NF4 multiplies in bnb_4bit_compute_dtype (api: computes_steps[].setting): float32
    unless set when quantizing on load, so an H100 card says FP32 and what the other values give, that a pre-quantized
    checkpoint sets it itself with the value its config.json stores (nf4dtype32; nf4dtype32s: "sets it", not
    "computes in", since on an AVX512-BF16 CPU the route is bfloat16 whatever it stores), and where the setting is
    read, folded; on an x86 CPU with AVX512-BF16 only bfloat16 runs as specified, and the card says the answer is for that value."""
    [step] = cells[("transformers-bnb-nf4", "nvidia-sm90")]["computes_steps"]
    setting = step["setting"]
    browser.open(f"{PAGE}?engine=transformers&scheme=transformers-bnb-nf4&hardware=part:h100-sxm")
    card = _shown(browser, SETTING, "answer card")
    assert card["step"] == "FP32 after dequantizing the weights"
    # the headline names what each value gives (orthead33: a reader sees the alternatives at a glance), the note
    # below does not list them again
    # float32 is the default only when quantizing on load: a pre-quantized checkpoint stores its own value (stored_in),
    # so the headline qualifies it as the comparison row and the note do (orthead33s)
    assert setting["stored_in"] and not setting["default_when"]
    assert card["head"] == (f"FP32 after dequantizing the weights ({step['labels'][0]}) with bnb_4bit_compute_dtype "
                            "float32, the default when quantizing on load; BF16 with bnb_4bit_compute_dtype bfloat16; "
                            "FP16 with bnb_4bit_compute_dtype float16")
    assert card["note"] == ("The setting bnb_4bit_compute_dtype chooses it. Quantizing on load, it is float32 unless "
                            "set. A pre-quantized checkpoint sets it itself: the "
                            f"value stored in {setting['stored_in']}.")
    assert card["where"] == setting["read_from"]
    [step] = cells[("transformers-bnb-nf4", "x86-cpu-avx512")]["computes_steps"]
    assert (step["precision"], step["setting"]["value"]) == ("bf16", "bfloat16")
    _pick(browser, hardware="part:amd-epyc-genoa")
    card = _shown(browser, SETTING, "answer card")
    assert card["step"] == "BF16 after dequantizing the weights"
    assert card["head"] == f"BF16 after dequantizing the weights ({step['labels'][0]})"
    assert card["note"] == ("Only with the setting bnb_4bit_compute_dtype bfloat16 (quantizing on load, unset, it is "
                            "float32: the conditions below say what runs then). A pre-quantized checkpoint sets it itself: "
                            f"the value stored in {step['setting']['stored_in']}.")
    # a comparison row, which has no room for the note, names the value
    _pick(browser, engine="any", scheme="format:nf4", hardware="part:h100-sxm")
    row = _shown(browser, "const r = document.querySelector('#atlas-answer tr[data-scheme=\"transformers-bnb-nf4\"]');"
                 "return r ? r.children[4].textContent : null;", "comparison")
    assert row == "FP32 after dequantizing the weights (bnb_4bit_compute_dtype float32, its default when quantizing on load)"


def test_an_integer_level_setting_says_what_each_writer_s_checkpoint_computes_in_before_the_other_levels(
        browser: Browser, cells: dict) -> None:
    """ONNX Runtime MatMulNBits on a CPU (ortacc33s): the step is FP32 at accuracy_level 0, what a graph without the
    attribute gets; the step's headline groups the levels by the precision they give and names what each tool that
    writes checkpoints stores (the quantizer 0, FP32; the GenAI builder 4, INT8), so "what does my GenAI-built CPU
    model compute in" is read at a glance; the note says when each writer stores its level, then the long note of level 4."""
    [step, _] = cells[("onnxruntime-matmulnbits-int4", "x86-cpu-avx512")]["computes_steps"]
    setting = step["setting"]
    browser.open(f"{PAGE}?engine=onnxruntime&scheme=onnxruntime-matmulnbits-int4&hardware=target:x86-cpu-avx512")
    card = _shown(browser, SETTING, "answer card")
    assert card["step"] == "FP32 after dequantizing the weights"
    quantizer, builder = setting["written_by"]
    assert (quantizer["value"], builder["value"]) == ("0", "4")
    # the headline itself says that level 4, what the GenAI builder writes, computes in INT8 (orthead33: a reader
    # with a GenAI-built model no longer reads FP32 at a glance); the note keeps when each writer stores its level
    assert card["head"] == (f"FP32 after dequantizing the weights ({step['labels'][0]}) with accuracy_level 0 to 3: "
                            f"0 is the default and what {quantizer['writer']} writes; INT8 with accuracy_level 4, "
                            f"what {builder['writer']} writes")
    head = (f"The setting accuracy_level chooses it: 0 {setting['default_when']}. A pre-quantized checkpoint sets it "
            f"itself: the value stored in {setting['stored_in']}. {quantizer['writer']} writes 0 "
            f"{quantizer['when']}; {builder['writer']} writes 4 {builder['when']}. With accuracy_level 4: activations")
    assert card["note"].startswith(head), card["note"]
    assert "gives" not in card["note"] and card["note"].count("accuracy_level 4:") == 1


def test_an_integer_step_says_the_weights_are_widened_not_dequantized(browser: Browser, cells: dict) -> None:
    """ONNX Runtime GenAI's CPU scheme runs MLAS at accuracy_level 4 (INT8): MLAS quantizes the activations to int8 per
    block and multiplies them with the weights' 4-bit codes widened to 8 bits, applying both scales to the integer
    sums, so the step does not say "after dequantizing the weights" (wording35); the float steps above still do."""
    step = next(s for s in cells[("onnxruntime-genai-int4-cpu", "x86-cpu-avx512")]["computes_steps"] if s["precision"])
    assert step["precision"] == "int8"
    browser.open(f"{PAGE}?engine=onnxruntime-genai&scheme=onnxruntime-genai-int4-cpu&hardware=target:x86-cpu-avx512")
    card = _shown(browser, SETTING, "answer card")
    assert card["step"] == ("INT8 (activations quantized to it, the weights' integers widened to it; scales applied to "
                            "the sums)")
    assert "after dequantizing" not in card["head"]


# the page's fetches of targets' cells, made slow or failing in the page: {target: [delay in ms, fail]} (a failing one is
# fetched from a path the site does not have, so the page meets a real 404)
SLOW_TARGETS = """const rules = arguments[0]; const real = window.__atlasFetch = window.__atlasFetch || window.fetch;
window.fetch = function (url) {
  const m = String(url).match(/targets\\/([a-z0-9-]+)\\.json$/), rule = m && rules[m[1]];
  if (!rule) return real(url);
  return new Promise(r => setTimeout(r, rule[0])).then(() => real(rule[1] ? url + '.missing' : url));
};"""
PICKS_AT_ONCE = """for (const [id, value] of arguments[0]) { const s = document.querySelector('#atlas-' + id);
s.value = value; if (s.value !== value) return false; s.dispatchEvent(new Event('change')); } return true;"""
ANSWER_NOW = """const a = document.querySelector('#atlas-answer'), h = a.querySelector('.atlas-card h2');
return {busy: a.hasAttribute('aria-busy'), title: h ? h.textContent : null, text: a.textContent.trim()};"""


def _answers_until_drawn(browser: Browser, settle: float) -> list[dict]:
    """The answer as it reads every 50 ms until it is no longer busy, and then for `settle` seconds more (while fetches
    of earlier picks land)."""
    seen = [browser.js(ANSWER_NOW)]
    deadline = time.monotonic() + 20
    while seen[-1]["busy"] and time.monotonic() < deadline:
        time.sleep(0.05)
        seen.append(browser.js(ANSWER_NOW))
    assert not seen[-1]["busy"], "the answer stayed busy"
    end = time.monotonic() + settle
    while time.monotonic() < end:
        time.sleep(0.05)
        seen.append(browser.js(ANSWER_NOW))
    return seen


def test_quick_picks_draw_only_the_last_and_a_failed_fetch_says_so(browser: Browser, names: dict) -> None:
    """Picks of other hardware made faster than their targets' cells arrive: only the last pick's answer is ever drawn,
    whichever fetch lands first (the others show the loading line, never another pick's card), and a target whose cells
    cannot be fetched says so instead of leaving the previous card."""
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-w8a8-fp8&hardware=part:h100-sxm")
    h100, v100, mi300x = (names[f"accelerator/{p}"] for p in ("h100-sxm", "v100", "mi300x"))
    assert h100 in _card(browser)["title"]
    # the first pick's cells land last: the last pick's card is drawn and stays
    browser.js(SLOW_TARGETS, {"nvidia-sm70": [1200, False], "amd-gfx942": [100, False]})
    assert browser.js(PICKS_AT_ONCE, [["hardware", "part:v100"], ["hardware", "part:mi300x"]])
    seen = _answers_until_drawn(browser, settle=1.5)
    assert {s["title"] for s in seen if s["title"]} == {seen[-1]["title"]} and mi300x in seen[-1]["title"], seen
    # the last pick's cells land last: the earlier pick's are not drawn meanwhile
    browser.js(SLOW_TARGETS, {"x86-cpu-avx512": [100, False], "amd-gfx1151": [1200, False]})
    assert browser.js(PICKS_AT_ONCE, [["hardware", "target:x86-cpu-avx512"], ["hardware", "target:amd-gfx1151"]])
    seen = _answers_until_drawn(browser, settle=0.3)
    assert all(s["title"] is None if s["busy"] else "gfx1151" in (s["title"] or "") for s in seen), seen
    assert _query(browser)["hardware"] == ["target:amd-gfx1151"]
    # a failed fetch: a message, not the previous card, and not busy
    browser.js(SLOW_TARGETS, {"nvidia-sm75": [300, True]})
    assert browser.js(PICKS_AT_ONCE, [["hardware", "target:nvidia-sm75"]])
    seen = _answers_until_drawn(browser, settle=0)
    assert seen[-1]["title"] is None and seen[-1]["text"].startswith("Could not load the atlas data: ") \
        and "targets/nvidia-sm75.json" in seen[-1]["text"], seen
    # a failing fetch overtaken by a pick of loaded cells leaves that pick's card, and the failed target is tried again
    browser.js(SLOW_TARGETS, {"nvidia-sm75": [600, True]})
    assert browser.js(PICKS_AT_ONCE, [["hardware", "target:nvidia-sm75"], ["hardware", "part:v100"]])
    seen = _answers_until_drawn(browser, settle=1.0)
    assert all(s["title"] and v100 in s["title"] for s in seen), seen
    browser.js(SLOW_TARGETS, {})
    _pick(browser, hardware="target:nvidia-sm75")
    assert "SM 7.5" in _card(browser)["title"]
    assert [e for e in browser.console_errors() if "nvidia-sm75.json.missing" not in e] == []


def test_an_outcome_reached_only_off_the_defaults_says_so_on_the_collapsed_line(browser: Browser, cells: dict,
                                                                                names: dict) -> None:
    """vLLM per-tensor FP8 MoE on MI355X: without the aiter package the load fails in AITER only with the AITER switches
    set (select_fp8_moe_backend tries AITER alone then, aiter35-audit-2026-12-04); a default install, which lacks both,
    runs Triton. The expanded step says "Off the defaults"; the collapsed line said "without condition 1, Fails at run
    time in vLLM AiterFp8TensorExperts", which a reader without aiter and without the switches would take as their load
    failing (aiter35s-second-reading-2026-12-04). It now says that outcome is off the defaults; the Triton one is not."""
    cell = cells[("vllm-fp8-moe", "amd-gfx950")]
    steps = cell["otherwise"]
    assert [(s["verdict"], s["off_default"]) for s in steps] == [("runs", False), ("fails-at-runtime", True)]
    browser.open(f"{PAGE}?engine=vllm&scheme=vllm-fp8-moe&hardware=target:amd-gfx950")
    shown = _shown(browser, OTHERWISE, "the steps when the conditions fail")
    aiter, triton = names["kernel/" + steps[1]["selected"]], names["kernel/" + steps[0]["selected"]]
    assert shown["summary"].startswith("If the conditions do not hold: without ")
    assert f", Runs via {triton}; off the defaults, without condition 1, Fails at run time in {aiter}" in shown["summary"]
    assert shown["summary"].count("off the defaults") == 1
    # expanded, a step's unmet condition follows a colon: it is a clause ("... is installed"), not a noun
    unmet = browser.js("return [...document.querySelectorAll('#atlas-answer .atlas-otherwise__unmet')]"
                       ".map(p => p.textContent)")
    assert [u.split(steps[i]["unmet"][0])[0] for i, u in enumerate(unmet)] == [
        "Without: ", "Off the defaults, without: "], unmet
    assert browser.console_errors() == []


SAID = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card) return null;
const texts = sel => [...card.querySelectorAll(sel)].map(e => e.textContent);
const facts = Object.fromEntries([...card.querySelectorAll('dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]));
return {covers: facts['Covers'], release: facts['Release'] || null, computes: facts['Computes in'] || null,
        notices: texts('.atlas-card__emulated, .atlas-card__unknown'),
        disagrees: texts('.atlas-card__finding section > p:first-of-type'), when: texts('.atlas-card__trap-when'),
        raises: texts('.atlas-otherwise__step > .atlas-card__note').filter(t => t.startsWith('The engine raises: ')),
        otherwise: texts('.atlas-otherwise__reasons > li')};
"""


def test_the_card_says_what_explain_says(browser: Browser, built_site: Path, real_check, cells: dict, names: dict) -> None:
    """The sentences both say are written once (derive/wording.py, served as the page data's `words`): for a cell of each
    kind, the card's "Covers" and "Release" lines, its format-map notices, a publisher that disagrees and when a trap
    applies read as `python -m generators explain` prints them, but for what each fills in its own way (the card names a
    kernel by its label, links a finding as "what differs" and an instruction to its source, says a table's record by
    its name and × for x, and ends a sentence with a full stop). The cells are found in the page's data, not typed."""
    import re
    from generators.explain import explain_text
    page = {}
    for path in sorted((built_site / "can-i-run-it/data/targets").glob("*.json")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            page[(cell["scheme"], cell["target"])] = cell
    index = json.loads((built_site / "can-i-run-it/data/index.json").read_text(encoding="utf-8"))["records"]
    schemes = {s["id"]: s for s in index["scheme"]}
    gotchas = {g["id"]: g for g in index["gotcha"]}

    def emulated(cell: dict) -> list[dict]:
        return cell.get("notices", {}).get("target", {}).get("emulated", [])

    kinds = {  # the first cell (in sorted order) of each kind
        "ways": lambda c: any(e["ways"] for e in emulated(c)),
        "no ways": lambda c: any(not e["ways"] for e in emulated(c)),
        "unknown": lambda c: c.get("notices", {}).get("target", {}).get("unknown"),
        "experts": lambda c: schemes[c["scheme"]].get("layers") == "experts",
        "disagrees": lambda c: any(not p["agrees"] for p in c["published"]),
        "trap when": lambda c: any(gotchas[t].get("applies_when") for t in c["traps"]),
        # a refusal on the way on that names a torch dtype the derivation fills in (vLLM's dtype test on vLLM-Gaudi)
        "dtype refused": lambda c: any(re.search(r"\btorch\.b?float\d+", s.get("failure_message", ""))
                                       for s in c.get("otherwise", [])),
        # what it computes in, by a format's precision label (never the format's name: "FP8 E4M3 (per-tensor /
        # per-block scaled)" on a per-channel cell), with no notice after it
        "computes in": lambda c: c["computes_in"] and not c["computes_as"] and not c.get("notices")
        and not any(step["precision"] for step in c["computes_steps"]) and len(c["computes_steps"]) <= 1,
    }
    picked = {kind: next(key for key in sorted(page) if test(page[key])) for kind, test in kinds.items()}
    atlas = real_check[0]
    for case, (kind, (scheme, target)) in enumerate(picked.items()):
        cell = page[(scheme, target)]
        lines = explain_text(atlas, scheme, target)[0].split("\n")
        if case:  # each next cell picked in the page's lists, as a reader picks it (one load of the page, not eight)
            _pick(browser, engine=schemes[scheme]["engine"], scheme=scheme, hardware=f"target:{target}")
        else:
            browser.open(f"{PAGE}?engine={schemes[scheme]['engine']}&scheme={scheme}&hardware=target:{target}")
        card = _shown(browser, SAID, "answer card")
        assert [card["covers"]] == [line.removeprefix("  covers: ") for line in lines if line.startswith("  covers: ")], kind
        release = [line.removeprefix("  release read: ") for line in lines if line.startswith("  release read: ")]
        for later in [e for e in index["engine"] if e["id"] == cell["engine"]][0]["later_releases"]:
            release = [line.replace(f"(finding {later['finding']})", "(what differs)") for line in release]
        assert [card["release"]] == release if release else card["release"] is None, kind
        notices = [line.removeprefix("    ") for line in lines if line.startswith("    the format map ")]
        for found in emulated(cell):
            for way in found["ways"]:
                ids, shown = way["kernels"], [label or names[f"kernel/{k}"] for k, label in zip(way["kernels"], way["labels"])]
                join = lambda who: ", ".join(who[:-1]) + " and " + who[-1] if len(who) > 1 else who[0]  # noqa: E731
                notices = [n.replace(join(ids) + way["said"] + (f" ({way['instruction']}, source {way['source']})"
                                                                if way["instruction"] else ""),
                                     join(shown) + way["said"] + (f" ({way['instruction']})" if way["instruction"] else ""))
                           for n in notices]
        assert card["notices"] == notices, kind
        computes = [line.removeprefix("  computes in: ") for line in lines if line.startswith("  computes in: ")]
        if computes:  # the card's line goes on with its notices, which explain prints below it
            assert card["computes"] == computes[0] + "".join(card["notices"]), kind
        disagrees = []
        for line, p in zip([line for line in lines if line.startswith("  the publisher disagrees: ")],
                           [p for p in cell["published"] if not p["agrees"]]):
            said = line.removeprefix("  the publisher disagrees: ")
            assert said.startswith(p["matrix"] + " says ")
            disagrees.append(names[f"support-matrix/{p['matrix']}"] + said[len(p["matrix"]):].replace("\u201d x \u201c", "\u201d \u00d7 \u201c") + ".")
        assert card["disagrees"] == disagrees, kind
        assert card["when"] == [m.group(0) for line in lines if re.match(r"    \S+ \((blocker|major|minor)", line)
                                and (m := re.search(r" \(only .+?\)(?= \[unverified\]$|$)", line))], kind
        # the engine's messages on the way on: the card links a reason's kernel by its label, explain prints its id
        assert card["raises"] == ["The engine raises: " + line.removeprefix("         engine raises: ")
                                  for line in lines if line.startswith("         engine raises: ")], kind
        head = "  if the conditions do not hold (the next outcome in the engine's order):"
        after = lines[lines.index(head) + 1:] if head in lines else []
        section = after[:next((n for n, line in enumerate(after) if not line.startswith("   ")), len(after))]
        reasons = [line.strip() for line in section if line.startswith("         ") and "engine raises: " not in line]
        assert card["otherwise"] == [names[f"kernel/{r.split(': ', 1)[0]}"] + ": " + r.split(": ", 1)[1]
                                     if f"kernel/{r.split(': ', 1)[0]}" in names else r for r in reasons], kind
        said = {"ways": notices, "no ways": notices, "unknown": notices, "disagrees": disagrees, "trap when": card["when"],
                "experts": card["covers"].startswith("the expert layers"), "dtype refused": card["raises"],
                "computes in": computes}
        assert said[kind], kind  # each cell says what it was picked for
    # where a setting chooses the precision, a comparison row says the step and the value it is for as explain does
    line = next(line for line in explain_text(atlas, "transformers-bnb-nf4", "nvidia-sm90")[0].split("\n")
                if "after dequantizing the weights" in line)
    [step] = cells[("transformers-bnb-nf4", "nvidia-sm90")]["computes_steps"]
    browser.open(f"{PAGE}?engine=any&format=nf4&hardware=part:h100-sxm")
    row = _shown(browser, "const r = document.querySelector('#atlas-answer tr[data-scheme=\"transformers-bnb-nf4\"]');"
                 "return r ? r.children[4].textContent : null;", "comparison")
    assert row == line.strip().replace(f" ({', '.join(step['kernels'])})", "", 1)
    assert browser.console_errors() == []


def test_the_card_says_a_package_test_before_the_gate_first_as_explain_does(browser: Browser, built_site: Path,
                                                                             real_check) -> None:
    """Where the engine tests packages before the capability gate (the gate's `after_installs`), the card's "Why not"
    lists what explain prints under the gate, in the same order: the package's message a default install sees first,
    then the gate's. The cell is found in the page's data, not typed."""
    from generators.explain import explain_text
    page = {}
    for path in sorted((built_site / "can-i-run-it/data/targets").glob("*.json")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            page[(cell["scheme"], cell["target"])] = cell
    index = json.loads((built_site / "can-i-run-it/data/index.json").read_text(encoding="utf-8"))["records"]
    gated = {s.id for s in real_check[0].index.all("scheme") if (s.data.get("capability_gate") or {}).get("after_installs")}
    scheme, target = next(key for key in sorted(page) if key[0] in gated and page[key].get("gate")
                          and len(page[key]["reasons"]) > 1)
    lines = explain_text(real_check[0], scheme, target)[0].split("\n")
    head = next(n for n, line in enumerate(lines) if line.endswith("FAILS, after package tests (in the engine's order):"))
    said = [line.strip() for line in lines[head + 1:] if line.startswith("    ")]
    said = said[:next((n for n, line in enumerate(lines[head + 1:]) if not line.startswith("    ")), len(said))]
    engine = next(s["engine"] for s in index["scheme"] if s["id"] == scheme)
    browser.open(f"{PAGE}?engine={engine}&scheme={scheme}&hardware=target:{target}")
    card = _shown(browser, CARD, "answer card")
    assert len(said) > 1 and [text for _, text in card["whyNot"]] == said
    assert browser.console_errors() == []


HOSTILE = '<img src=x onerror="window.__owned=1">'
# the page's index as fetched, with every name of these kinds made hostile (before the page reads it)
HOSTILE_INDEX = "const bad = " + json.dumps(HOSTILE) + """; const real = window.fetch;
window.fetch = function (url) {
  return real.apply(this, arguments).then(function (r) {
    if (!/data\\/index\\.json$/.test(String(url))) return r;
    return r.json().then(function (doc) {
      ['format', 'accelerator', 'support-matrix', 'kernel', 'engine', 'finding'].forEach(function (k) {
        doc.records[k].forEach(function (e) { e.name = bad + e.name; });
      });
      doc.records.format.forEach(function (e) { e.precision_label = bad + e.precision_label; });
      return new Response(JSON.stringify(doc), {status: 200, headers: {'Content-Type': 'application/json'}});
    });
  });
};"""


def test_record_text_in_the_served_sentences_stays_text(browser: Browser, built_site: Path) -> None:
    """The served sentences are filled with record text (a format's precision label, a part's, a table's name) as text nodes, never parsed
    as HTML: with every such name hostile, a card with format-map notices and one with a publisher that disagrees show
    the names as written, and nothing runs."""
    page = {}
    for path in sorted((built_site / "can-i-run-it/data/targets").glob("*.json")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            page[(cell["scheme"], cell["target"])] = cell
    notices = next(key for key in sorted(page) if any(
        e["ways"] for e in page[key].get("notices", {}).get("target", {}).get("emulated", [])))
    engines = {s["id"]: s["engine"] for s in json.loads((built_site / "can-i-run-it/data/index.json")
                                                        .read_text(encoding="utf-8"))["records"]["scheme"]}
    added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOSTILE_INDEX})
    try:
        for scheme, target in (notices, ("vllm-ct-w4a8-int", "x86-cpu-avx512")):
            browser.open(f"{PAGE}?engine={engines[scheme]}&scheme={scheme}&hardware=target:{target}")
            shown = _shown(browser, """const card = document.querySelector('#atlas-answer .atlas-card');
                if (!card) return null;
                return {imgs: document.querySelectorAll('#atlas-answer img').length, owned: window.__owned || 0,
                        said: [...card.querySelectorAll('.atlas-card__emulated, .atlas-card__finding p')].map(e => e.textContent)};""",
                           "answer card")
            assert shown["imgs"] == 0 and shown["owned"] == 0, (scheme, target)
            assert shown["said"] and HOSTILE in shown["said"][0], shown["said"]
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


# the page's index as fetched, without the words named (all of them where none are named): a copy older than the script
STALE_INDEX = """const dropped = %s; const real = window.fetch;
window.fetch = function (url) {
  return real.apply(this, arguments).then(function (r) {
    if (!/data\\/index\\.json$/.test(String(url))) return r;
    return r.json().then(function (doc) {
      if (dropped.length) { dropped.forEach(function (k) { delete doc.words[k]; }); } else { delete doc.words; }
      return new Response(JSON.stringify(doc), {status: 200, headers: {'Content-Type': 'application/json'}});
    });
  });
};"""


@pytest.mark.parametrize("dropped", [[], ["trap_when", "later_release"]])
def test_an_index_without_the_words_the_script_places_is_said_not_to_load(browser: Browser, dropped: list) -> None:
    """An index.json older than the script (kept by a cache, as under `mkdocs serve` after a pull) that lacks words the
    script places: the answer says the data could not load and which words are missing, not a blank card or a sentence
    with "undefined" in it."""
    added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                           {"source": STALE_INDEX % json.dumps(dropped)})
    try:
        browser.open(f"{PAGE}?engine=vllm&scheme=vllm-awq-marlin&hardware=target:nvidia-sm100")
        said = _shown(browser, """const a = document.querySelector('#atlas-answer');
            return a && /Could not load/.test(a.textContent) ? a.textContent : null;""", "message")
        assert said.startswith("Could not load the atlas data: its index.json lacks the words ")
        assert all(k in said for k in dropped or ["covers", "whichever"]) and "undefined" not in said
        assert browser.console_errors() == []
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def test_a_scheme_of_an_engine_that_runs_here_through_its_plugin_sends_the_reader_to_the_plugin(
        browser: Browser, built_site: Path, cells: dict) -> None:
    """vLLM has no Intel Gaudi platform of its own and reaches it through its plugin vLLM-Gaudi, an engine of its own
    (plugin_of, read from the index): a vLLM scheme on a Gaudi target once said only that the atlas had no derived
    cell, and the comparison called it a gap in the atlas. The card now names the plugin with both releases read and
    links to its answers on the same hardware, and the comparison labels the row as through the plugin, not as not
    derived, unless none of the plugin's schemes reads the format (then it is a gap through the plugin)."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    engines = {e["id"]: e for e in index["records"]["engine"]}
    host, platform, plugin = next((e["id"], platform, plugin) for e in engines.values()
                                  for platform, plugin in sorted(e.get("through_plugin", {}).items()))
    target = next(t["id"] for t in index["records"]["hardware-target"] if t["platform"] == platform)
    scheme = next(s for s in index["records"]["scheme"] if s["engine"] == host and s["formats"]
                  and any(p["engine"] == plugin and set(s["formats"]) <= set(p["formats"]) and (p["id"], target) in cells
                          for p in index["records"]["scheme"]))
    browser.open(f"{PAGE}?engine={host}&scheme={scheme['id']}&hardware=target:{target}")
    card = _shown(browser, "const c = document.querySelector('#atlas-answer .atlas-card'); return c && "
                           "{text: c.textContent, links: [...c.querySelectorAll('a')].map(a => a.getAttribute('href'))}",
                  "plugin card")
    assert "Through a plugin" in card["text"] and "no derived cell" not in card["text"]
    assert (f"{engines[host]['name']} has no platform {platform} of its own (none at {engines[host]['version_read']}, "
            f"the release read): it runs there through its plugin {engines[plugin]['name']}") in card["text"]
    assert f"read at {engines[plugin]['version_read']}" in card["text"] and "in the atlas reads" not in card["text"]
    _links_to_the_schemes_reading_the_format(browser, card["links"], index, plugin, scheme["formats"], f"target:{target}",
                                             cells)
    assert f"?engine=any&format={scheme['formats'][0]}&hardware=target%3A{target}" in card["links"]
    browser.open(f"{PAGE}?engine=any&format={scheme['formats'][0]}&hardware=target:{target}")
    _comparison(browser)
    row = browser.js(f"return document.querySelector('tr[data-scheme=\"{scheme['id']}\"]').textContent")
    box = browser.js("return document.querySelector('.atlas-compare').textContent")
    assert f"through {engines[plugin]['name']}" in row and "not derived" not in row
    assert "through a plugin" in box and f"Through {engines[plugin]['name']}: " in box
    plugin_rows = browser.js("return [...document.querySelectorAll('tr[data-verdict]')].filter(r => r.dataset.verdict)"
                             ".map(r => r.dataset.scheme)")
    assert any(s["id"] in plugin_rows for s in index["records"]["scheme"] if s["engine"] == plugin)
    # a host scheme whose format none of the plugin's schemes reads (vLLM's NVFP4 on Gaudi once): a gap, said as one.
    # The plugin now has a scheme for every format of the host's (gaudi43-audit-2026-12-05), so the index is served
    # with the one plugin scheme reading a host scheme's first format reading it no more
    unread, lone = next((s, only[0]) for s in index["records"]["scheme"] if s["engine"] == host and s["formats"]
                        for only in [[p for p in index["records"]["scheme"] if p["engine"] == plugin
                                      and s["formats"][0] in p["formats"]]] if len(only) == 1)
    added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WITH_FORMATS % json.dumps(
        [lone["id"], [f for f in lone["formats"] if f != unread["formats"][0]]])})
    try:
        browser.open(f"{PAGE}?engine=any&format={unread['formats'][0]}&hardware=target:{target}")
        _comparison(browser)
        row = browser.js(f"return document.querySelector('tr[data-scheme=\"{unread['id']}\"]').textContent")
        box = browser.js("return document.querySelector('.atlas-compare').textContent")
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
    assert f"through {engines[plugin]['name']}: not derived" in row
    assert f"none of {engines[plugin]['name']}'s schemes in the atlas reads " in box


def test_a_plugin_scheme_off_the_plugins_platforms_says_the_host_answers_there_not_that_it_is_a_gap(
        browser: Browser, built_site: Path, cells: dict) -> None:
    """The mirror of the test above: vLLM-Gaudi adds platform hpu to vLLM and no other (plugin_of, read from the index),
    so its AWQ scheme on an NVIDIA A10 once said "not derived ... a gap in the atlas, not a refusal". The card now says
    the plugin runs on its platforms only and that there vLLM answers with its own schemes, links to them, and lists
    the record's steps saying why, each with its source; the comparison counts the row apart, neither as a gap nor as
    a verdict."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    engines = {e["id"]: e for e in index["records"]["engine"]}
    sources = {s["id"]: s for s in index["records"]["source"]}
    schemes = {s["id"]: s for s in index["records"]["scheme"]}
    # the relation as the host's brief serves it (the pointer the other way), then a target of a platform the plugin
    # does not add where some scheme of the host has a cell, so the host answers there
    host, plugin = next((e["id"], p) for e in engines.values() for p in sorted(set(e.get("through_plugin", {}).values())))
    platforms = sorted(p for p, by in engines[host]["through_plugin"].items() if by == plugin)
    answered = {c["target"] for c in cells.values() if schemes[c["scheme"]]["engine"] == host}
    target = next(t for t in sorted(index["records"]["hardware-target"], key=lambda t: t["order"])
                  if t["platform"] not in platforms and t["id"] in answered)
    scheme = next(s for s in schemes.values() if s["engine"] == plugin and s["formats"] and any(
        h["engine"] == host and set(s["formats"]) <= set(h["formats"]) and (h["id"], target["id"]) in cells
        for h in schemes.values()))
    browser.open(f"{PAGE}?engine={plugin}&scheme={scheme['id']}&hardware=target:{target['id']}")
    card = _shown(browser, "const c = document.querySelector('#atlas-answer .atlas-card'); return c && "
                           "{state: c.dataset.state, text: c.textContent, "
                           "links: [...c.querySelectorAll('a')].map(a => a.getAttribute('href')), "
                           "steps: [...c.querySelectorAll('ol li')].map(li => [li.textContent, li.querySelector('a').pathname])}",
                  "plugin-elsewhere card")
    assert card["state"] == "plugin-elsewhere"
    assert "not derived" not in card["text"].lower() and "gap" not in card["text"] and "no derived cell" not in card["text"]
    assert card["text"].startswith(f"{scheme['name']} on ")
    assert f"Not on this platform {engines[plugin]['name']} is {engines[host]['name']}'s platform plugin for " \
        f"{', '.join(platforms)} only (read at {engines[plugin]['version_read']}): it adds no platform " \
        f"{target['platform']}, so none of its schemes runs here; on platform {target['platform']}, " \
        f"{engines[host]['name']} answers with its own schemes." in card["text"]
    _links_to_the_schemes_reading_the_format(browser, card["links"], index, host, scheme["formats"], f"target:{target['id']}",
                                             cells)
    assert f"?engine=any&format={scheme['formats'][0]}&hardware=target%3A{target['id']}" in card["links"]
    relation = engines[plugin]["plugin_of"]
    assert relation["engine"] == host and relation["platforms"] == platforms
    assert [text for text, _ in card["steps"]] == [f"{s['text']} ({sources[s['source']]['name']}, {s['locator']})"
                                                    for s in relation["elsewhere"]] and card["steps"]
    assert all(path.endswith(f"/sources/{s['source']}/") for (_, path), s in zip(card["steps"], relation["elsewhere"]))
    browser.open(f"{PAGE}?engine=any&format={scheme['formats'][0]}&hardware=target:{target['id']}")
    shown = _comparison(browser)
    row = next(r for r in shown["rows"] if r["scheme"] == scheme["id"])
    assert row["state"] == "plugin-elsewhere" and row["verdict"] == "" and row["badge"] is None
    assert row["stateText"] == f"{engines[plugin]['name']}: {', '.join(platforms)} only"
    # the label wraps inside the verdict column rather than running past it (it once ended "hpu onl")
    assert browser.js("return [...document.querySelectorAll('td .atlas-compare__elsewhere')].map(p => "
                      "p.scrollWidth <= p.clientWidth && p.getBoundingClientRect().right <= "
                      "p.closest('td').getBoundingClientRect().right + 0.5)") == [True] * len(
        [r for r in shown["rows"] if r["state"] == "plugin-elsewhere"])
    assert "?" + urlsplit(row["answer"]).query == f"?engine={plugin}&scheme={scheme['id']}&hardware=target%3A{target['id']}"
    tally = browser.js("return document.querySelector('.atlas-compare__tally').textContent")
    away = [r for r in shown["rows"] if r["state"] == "plugin-elsewhere"]
    assert f"not on this platform {len(away)}." in tally or f"not on this platform {len(away)} " in tally
    assert shown["gaps"] == len([r for r in shown["rows"] if r["verdict"] == "" and r["state"] is None
                                 and "through " not in r["stateText"]])
    assert browser.console_errors() == []


def _links_to_the_schemes_reading_the_format(browser: Browser, links: list, index: dict, engine: str, format_ids: list,
                                             hardware: str, cells: dict) -> None:
    """The card sends the reader to the other engine's answers for the same formats: a link to the card of each of its
    schemes reading every format the scheme reads that has a cell on this hardware's target, not an engine-only link
    (which lands on whichever scheme its picker lists first: from a GPTQ scheme of vLLM-Gaudi on an RTX 5090, vLLM's
    AWQ card), and each link opens that scheme's card on the same hardware."""
    target = next(t["id"] for t in index["records"]["hardware-target"] if f"target:{t['id']}" == hardware)
    theirs = sorted(s["id"] for s in index["records"]["scheme"] if s["engine"] == engine
                    and set(format_ids) <= set(s["formats"]) and (s["id"], target) in cells)
    names = {s["id"]: s["name"] for s in index["records"]["scheme"]}
    query = urlencode({"hardware": hardware})
    sent = [link for link in links if link.startswith(f"?engine={engine}&")]
    assert theirs and sorted(sent) == sorted(f"?engine={engine}&scheme={sid}&{query}" for sid in theirs)
    for sid in theirs:
        browser.open(f"{PAGE}?engine={engine}&scheme={sid}&{query}")
        title = _shown(browser, "const h = document.querySelector('#atlas-answer h2'); return h && h.textContent", "title")
        assert title.startswith(f"{names[sid]} on ")


def test_a_card_for_a_scheme_reading_several_formats_names_the_schemes_reading_every_one_as_explain_does(
        browser: Browser, built_site: Path, real_check, cells: dict) -> None:
    """A scheme may read several formats (vLLM's compressed-tensors NVFP4 reads NVFP4 and llm-compressor checkpoints).
    The plugin card and its mirror once listed, for each format, the other engine's schemes reading it here: on Gaudi
    vLLM's NVFP4 card said vLLM-Gaudi reads no NVFP4 and then named vLLM-Gaudi's compressed-tensors W4A16 and W8A8
    schemes as "reading llm-compressor checkpoint here", none of which loads an NVFP4 checkpoint. Another engine's
    scheme answers only where it reads every format the scheme reads (derive/plugins.py answers_for); a format none of
    its schemes here reads is said as a gap, alone. For every scheme of each engine on a target of the other's, the
    card's answers read as explain prints them: a paragraph a line, the same formats (the comparison of each) and the
    same schemes, each reading every format; the plugin card says the plugin reads none of only the formats it reads
    none of, and the engine's page once. The rule reads the formats and which schemes have a cell on the target, and a
    scheme has a cell on every target of a platform or on none (asserted), so one target of each platform is every
    case: the plugin's platforms for the host's schemes, each other platform for the plugin's."""
    from generators.explain import explain_text
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    engines = {e["id"]: e for e in index["records"]["engine"]}
    schemes = {s["id"]: s for s in index["records"]["scheme"]}
    formats = {f["id"]: f for f in index["records"]["format"]}
    targets = sorted(index["records"]["hardware-target"], key=lambda t: t["order"])
    plugin = next(e for e in engines.values() if e.get("plugin_of"))
    host = engines[plugin["plugin_of"]["engine"]]
    first = {t["platform"]: t["id"] for t in reversed(targets)}  # each platform's first target
    assert all(((s, t["id"]) in cells) == ((s, first[t["platform"]]) in cells) for s in schemes for t in targets)
    on = [first[p] for p in sorted(first) if p in plugin["plugin_of"]["platforms"]]
    off = [first[p] for p in sorted(first) if p not in plugin["plugin_of"]["platforms"]]
    assert on and len(off) > 1
    read = "const c = document.querySelector('#atlas-answer .atlas-card'); return c && {text: c.textContent, " \
           "links: [...c.querySelectorAll('a')].map(a => a.textContent), paragraphs: [...c.querySelectorAll(':scope > p')]" \
           ".slice(1).map(p => [...p.querySelectorAll('a')].map(a => a.getAttribute('href')))}"
    several, named_some, shown_before = 0, 0, None
    for mine, other, target in [(host, plugin, t) for t in on] + [(plugin, host, t) for t in off]:
        for scheme in sorted((s for s in schemes.values() if s["engine"] == mine["id"] and s["formats"]
                              and (s["id"], target) not in cells), key=lambda s: s["id"]):
            several += len(scheme["formats"]) > 1
            prefix = f"  {other['name']}'s {WORDS['layer_schemes'][scheme['layers']]} schemes reading "  # type: ignore[index]
            said = [line.removeprefix(prefix).split(" here: ")
                    for line in explain_text(real_check[0], scheme["id"], target)[0].split("\n") if line.startswith(prefix)]
            # the first card from a link, the others (over a hundred) picked on that one load of the page as a reader
            # picks them, changing the lists whose pick changes: a load of the page each took 0.15 s of the browser's CPU
            if shown_before is None:
                browser.open(f"{PAGE}?engine={mine['id']}&scheme={scheme['id']}&hardware=target:{target}")
            else:
                _pick(browser, **{"engine": mine["id"]} if shown_before[0] != mine["id"] else {}, scheme=scheme["id"],
                      **{"hardware": f"target:{target}"} if shown_before[1] != target else {})
            shown_before = mine["id"], target
            card = _shown(browser, read, "card")
            shown = []
            for hrefs in card["paragraphs"]:
                about = [parse_qs(urlsplit(h).query)["format"][0] for h in hrefs if h.startswith("?engine=any&")]
                named = sorted(parse_qs(urlsplit(h).query)["scheme"][0] for h in hrefs
                               if h.startswith(f"?engine={other['id']}&scheme="))
                assert all(set(scheme["formats"]) <= set(schemes[n]["formats"]) and schemes[n]["layers"] == scheme["layers"]
                           for n in named), (scheme["id"], named)
                named_some += bool(named)
                names = [formats[f]["name"] for f in about]
                shown.append([", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0],
                              ", ".join(f"{n} ({cells[(n, target)]['verdict']})" for n in named) or "none in the atlas"])
            assert shown == said, (scheme["id"], card["text"])
            assert card["links"].count(f"{other['name']}\u2019s page") <= 1
            unread = [formats[f]["name"] for f in scheme["formats"]
                      if not any(o["engine"] == other["id"] and f in o["formats"] for o in schemes.values())]
            none = re.findall(rf"none of {re.escape(other['name'])}'s schemes in the atlas reads (.*?), so for it",
                              card["text"])
            assert none == ([" or ".join(unread)] if unread and other is plugin else []), (scheme["id"], card["text"])
    assert several and named_some  # schemes reading several formats were among them, and cards naming schemes
    assert browser.console_errors() == []


def test_vllm_nvfp4_on_gaudi_2_names_vllm_gaudis_refused_nvfp4_scheme_and_none_reading_its_container_only(
        browser: Browser, built_site: Path, cells: dict) -> None:
    """The case a reader met: vLLM's compressed-tensors NVFP4 scheme on Gaudi 2 reads NVFP4 and llm-compressor
    checkpoints. The card once said no vLLM-Gaudi scheme reads NVFP4, then listed vLLM-Gaudi's compressed-tensors W4A16
    and W8A8 schemes as "reading llm-compressor checkpoint here": true of the container, but none of them loads an NVFP4
    checkpoint. vLLM-Gaudi's own NVFP4 scheme is now recorded (refused on Gaudi: vLLM's NVFP4 scheme finds no kernel
    list for the plugin's platform, card43s-second-reading-2026-12-05), so the card names it, once for both formats,
    and its link opens its card with the refusal and vLLM's message; the schemes reading the container only stay
    unnamed. Where a format of a vLLM scheme is one no vLLM-Gaudi scheme with a cell reads, the card says that gap alone
    and names nothing for the container (the comparison links are for the gap's format only)."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    schemes = {s["id"]: s for s in index["records"]["scheme"]}
    formats = {f["id"]: f for f in index["records"]["format"]}
    scheme, target = schemes["vllm-ct-w4a4-nvfp4"], "intel-gaudi2"
    element, container = scheme["formats"]  # as the record lists them: nvfp4, then llmcompressor-quant
    assert (element, container) == ("nvfp4", "llmcompressor-quant")
    here = [s for s in schemes.values() if s["engine"] == "vllm-gaudi" and (s["id"], target) in cells]
    readers = sorted(s["id"] for s in here if container in s["formats"] and element not in s["formats"])
    assert {"vllm-gaudi-ct-wna16", "vllm-gaudi-ct-w8a8-fp8", "vllm-gaudi-ct-w8a8-int8"} <= set(readers)
    answer = schemes["vllm-gaudi-ct-w4a4-nvfp4"]
    assert [s["id"] for s in here if {element, container} <= set(s["formats"])] == [answer["id"]]
    assert cells[(answer["id"], target)]["verdict"] == "refused"
    read = "const c = document.querySelector('#atlas-answer .atlas-card'); return c && " \
           "{text: c.textContent, links: [...c.querySelectorAll('a')].map(a => a.getAttribute('href'))}"
    browser.open(f"{PAGE}?engine=vllm&scheme={scheme['id']}&hardware=target:{target}")
    card = _shown(browser, read, "plugin card")
    link = f"?engine=vllm-gaudi&scheme={answer['id']}&hardware=target%3A{target}"
    assert [href for href in card["links"] if href.startswith("?engine=vllm-gaudi&")] == [link], card["links"]
    assert f"vLLM-Gaudi\u2019s dense-layer scheme reading {formats[element]['name']} and {formats[container]['name']} here: " \
           f"{answer['name']}" in card["text"]
    assert not any(schemes[r]["name"] in card["text"] for r in readers)
    assert "in the atlas reads" not in card["text"] and "gap" not in card["text"]
    assert [href for href in card["links"] if href.startswith("?engine=any&")] == [
        f"?engine=any&format={f}&hardware=target%3A{target}" for f in (element, container)]
    browser.open(PAGE + link)
    refused = _shown(browser, "const c = document.querySelector('#atlas-answer .atlas-card'); return c && "
                              "c.querySelector('h2') && c.querySelector('h2').textContent.startsWith("
                              f"{json.dumps(answer['name'])}) ? c.textContent : null", "the NVFP4 scheme's card")
    assert "Refused" in refused and "Failed to find a kernel that can implement the NVFP4 linear layer" in refused
    # a gap: a scheme with a format no vLLM-Gaudi scheme with a cell reads, and the container that some do. vLLM-Gaudi
    # now has a scheme for every format of vLLM's compressed-tensors schemes (gaudi43-audit-2026-12-05), so the index
    # is served with the one vLLM-Gaudi scheme reading another format of such a scheme reading the container only
    gapped, lone = next((s, only[0]) for s in sorted(schemes.values(), key=lambda s: s["id"]) if s["engine"] == "vllm"
                        and container in s["formats"] and len(s["formats"]) > 1
                        for only in [[h for h in here if set(s["formats"]) <= set(h["formats"])]] if len(only) == 1
                        and all(f == container or not any(f in h["formats"] for h in here if h is not only[0])
                                for f in s["formats"]))
    gaps = [f for f in gapped["formats"] if f != container]
    added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                           {"source": WITH_FORMATS % json.dumps([lone["id"], [container]])})
    try:
        browser.open(f"{PAGE}?engine=vllm&scheme={gapped['id']}&hardware=target:{target}")
        card = _shown(browser, read, "plugin card")
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
    assert f"none of vLLM-Gaudi's schemes in the atlas reads {' or '.join(formats[f]['name'] for f in gaps)}" in card["text"]
    assert not [href for href in card["links"] if href.startswith("?engine=vllm-gaudi&")], (gapped["id"], card["links"])
    assert formats[container]["name"] not in card["text"] and "here: " not in card["text"]
    assert [href for href in card["links"] if href.startswith("?engine=any&")] == [
        f"?engine=any&format={f}&hardware=target%3A{target}" for f in gaps]
    assert browser.console_errors() == []


def test_a_card_names_only_schemes_of_the_other_engine_covering_the_layers_its_scheme_covers(
        browser: Browser, built_site: Path, cells: dict) -> None:
    """A cell describes only its scheme's layers (`layers`: dense, or a mixture-of-experts model's expert layers). The
    rule once read the formats alone, so vLLM's dense compressed-tensors WNA16 card on Gaudi 2 named vLLM-Gaudi's
    compressed-tensors WNA16 MoE scheme beside its dense one, an answer for the experts of the same checkpoint, not its
    dense layers. For each layers value, a vLLM scheme without a cell here that some vLLM-Gaudi scheme of each layers
    value reading all its formats would answer for (chosen from the records): the card links only those covering its
    own layers, and calls them by those layers."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    schemes = {s["id"]: s for s in index["records"]["scheme"]}
    engines = {e["id"]: e for e in index["records"]["engine"]}
    plugin = next(e for e in engines.values() if e.get("plugin_of"))
    host = plugin["plugin_of"]["engine"]
    target = next(t["id"] for t in sorted(index["records"]["hardware-target"], key=lambda t: t["order"])
                  if t["platform"] in plugin["plugin_of"]["platforms"])

    def readers(scheme: dict) -> list[dict]:
        return [s for s in schemes.values() if s["engine"] == plugin["id"] and (s["id"], target) in cells
                and set(scheme["formats"]) <= set(s["formats"])]

    read = "const c = document.querySelector('#atlas-answer .atlas-card'); return c && " \
           "{text: c.textContent, links: [...c.querySelectorAll('a')].map(a => a.getAttribute('href'))}"
    for layers in ("dense", "experts"):
        scheme = next(s for s in sorted(schemes.values(), key=lambda s: s["id"]) if s["engine"] == host
                      and s["layers"] == layers and s["formats"] and (s["id"], target) not in cells
                      and {r["layers"] for r in readers(s)} == {"dense", "experts"})
        mine = sorted(r["id"] for r in readers(scheme) if r["layers"] == layers)
        browser.open(f"{PAGE}?engine={host}&scheme={scheme['id']}&hardware=target:{target}")
        card = _shown(browser, read, "plugin card")
        named = sorted(parse_qs(urlsplit(h).query)["scheme"][0] for h in card["links"]
                       if h.startswith(f"?engine={plugin['id']}&scheme="))
        assert named == mine, (scheme["id"], card["text"])
        kind = WORDS["layer_schemes"][layers]  # type: ignore[index]
        assert f"{plugin['name']}\u2019s {kind} scheme" in card["text"], card["text"]
    assert browser.console_errors() == []



def test_a_card_says_a_format_only_the_other_engines_schemes_for_other_layers_read(
        browser: Browser, built_site: Path, cells: dict) -> None:
    """The rule's gap side, each way the records hold a case: where the other engine's schemes reading a format of the
    scheme, with a cell here, all cover the other layers (vLLM's dense compressed-tensors WNA16 for vLLM-Gaudi's WNA16
    MoE one off Gaudi; once also vLLM-Gaudi's dense block-FP8 for vLLM's block-FP8 MoE on Gaudi), the card once linked
    them as answers. It
    now links none of them and says no scheme of those layers reads the format, in WORDS.layer_schemes' words; the
    schemes and targets are chosen from the records."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    schemes = {s["id"]: s for s in index["records"]["scheme"]}
    engines = {e["id"]: e for e in index["records"]["engine"]}
    formats = {f["id"]: f for f in index["records"]["format"]}
    plugin = next(e for e in engines.values() if e.get("plugin_of"))
    host = plugin["plugin_of"]["engine"]
    targets = sorted(index["records"]["hardware-target"], key=lambda t: t["order"])
    on_plugin = next(t["id"] for t in targets if t["platform"] in plugin["plugin_of"]["platforms"])
    off_plugin = next(t["id"] for t in targets if t["platform"] in plugin["plugin_of"]["host_platforms"])

    def other_layers_only(scheme: dict, other: str, target: str) -> list[str]:
        """The scheme's formats the other engine reads with the other layers' schemes alone, one with a cell here."""
        def readers(f: str) -> list[dict]:
            return [s for s in schemes.values() if s["engine"] == other and f in s["formats"]]
        return [f for f in scheme["formats"] if readers(f)
                and all(r["layers"] != scheme["layers"] for r in readers(f))
                and any((r["id"], target) in cells for r in readers(f))]

    read = "const c = document.querySelector('#atlas-answer .atlas-card'); return c && " \
           "{text: c.textContent, links: [...c.querySelectorAll('a')].map(a => a.getAttribute('href'))}"
    cases = [(mine, other, target, next((s for s in sorted(schemes.values(), key=lambda s: s["id"])
                                         if s["engine"] == mine and (s["id"], target) not in cells
                                         and other_layers_only(s, other, target)), None))
             for mine, other, target in ((host, plugin["id"], on_plugin), (plugin["id"], host, off_plugin))]
    # a direction the records no longer hold a case for (vLLM-Gaudi's block-FP8 MoE scheme now answers vLLM's on
    # Gaudi) is left to the unit test of answers_for; one real case must remain for the card
    assert any(scheme for *_, scheme in cases), "no real case of a format only other-layer schemes read"
    for mine, other, target, scheme in cases:
        if scheme is None:
            continue
        browser.open(f"{PAGE}?engine={mine}&scheme={scheme['id']}&hardware=target:{target}")
        card = _shown(browser, read, "card answered by another engine")
        named = [parse_qs(urlsplit(h).query)["scheme"][0] for h in card["links"] if h.startswith(f"?engine={other}&scheme=")]
        assert all(schemes[n]["layers"] == scheme["layers"] for n in named), (scheme["id"], card["text"])
        kind = WORDS["layer_schemes"][scheme["layers"]]  # type: ignore[index]
        for f in other_layers_only(scheme, other, target):
            said = f"No {kind} scheme of {engines[other]['name']} in the atlas reads {formats[f]['name']}"
            assert said in card["text"], (scheme["id"], card["text"])
    assert browser.console_errors() == []

# the page's index as fetched, with the formats of one scheme replaced
WITH_FORMATS = """const [id, formats] = %s; const real = window.fetch;
window.fetch = function (url) {
  return real.apply(this, arguments).then(function (r) {
    if (!/data\\/index\\.json$/.test(String(url))) return r;
    return r.json().then(function (doc) {
      doc.records.scheme.forEach(function (s) { if (s.id === id) { s.formats = formats; } });
      return new Response(JSON.stringify(doc), {status: 200, headers: {'Content-Type': 'application/json'}});
    });
  });
};"""


def test_a_scheme_of_the_other_engine_reading_every_format_is_named_once_for_them_all(
        browser: Browser, built_site: Path, cells: dict) -> None:
    """The rule's other side, on the same card: a vLLM-Gaudi scheme with a cell on Gaudi 2 that reads NVFP4 as well as
    llm-compressor checkpoints answers for vLLM's compressed-tensors NVFP4, named in one list for both formats, and the
    compressed-tensors schemes reading the container only are not; nor is an NVFP4 gap said. The index is served with
    one of those container readers reading NVFP4 too: it joins the list (beside vLLM-Gaudi's own NVFP4 scheme, the one
    reading both today), and the other container readers still are not named."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    schemes = {s["id"]: s for s in index["records"]["scheme"]}
    formats = {f["id"]: f for f in index["records"]["format"]}
    scheme, target = schemes["vllm-ct-w4a4-nvfp4"], "intel-gaudi2"
    here = [s for s in schemes.values() if s["engine"] == "vllm-gaudi" and (s["id"], target) in cells]
    full = [s["id"] for s in here if set(scheme["formats"]) <= set(s["formats"])]
    readers = sorted(s["id"] for s in here if set(scheme["formats"]) & set(s["formats"]) and s["id"] not in full)
    both = readers[0]
    added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WITH_FORMATS % json.dumps(
        [both, schemes[both]["formats"] + [f for f in scheme["formats"] if f not in schemes[both]["formats"]]])})
    try:
        browser.open(f"{PAGE}?engine=vllm&scheme={scheme['id']}&hardware=target:{target}")
        card = _shown(browser, "const c = document.querySelector('#atlas-answer .atlas-card'); return c && "
                               "{text: c.textContent, links: [...c.querySelectorAll('a')].map(a => a.getAttribute('href'))}",
                      "plugin card")
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
    names = [formats[f]["name"] for f in scheme["formats"]]
    named = sorted(full + [both], key=lambda sid: schemes[sid]["name"])
    assert len(readers) > 1 and [href for href in card["links"] if href.startswith("?engine=vllm-gaudi&")] == [
        f"?engine=vllm-gaudi&scheme={sid}&hardware=target%3A{target}" for sid in named], card["links"]
    assert f"vLLM-Gaudi\u2019s dense-layer {'scheme' if len(named) == 1 else 'schemes'} reading {' and '.join(names)} here: " \
           f"{', '.join(schemes[sid]['name'] for sid in named)} \u00b7 " in card["text"]
    assert "in the atlas reads" not in card["text"] and "gap" not in card["text"]
    assert [href for href in card["links"] if href.startswith("?engine=any&")] == [
        f"?engine=any&format={f}&hardware=target%3A{target}" for f in scheme["formats"]]
    assert browser.console_errors() == []


def test_a_plugin_card_whose_other_engine_reads_none_of_the_format_says_so_and_links_its_page(
        browser: Browser, built_site: Path) -> None:
    """A vLLM scheme on a Gaudi target whose formats none of vLLM-Gaudi's schemes reads: the card once linked
    "vLLM-Gaudi's answers on this hardware", an engine-only link that opened whichever vLLM-Gaudi scheme the picker
    lists first (its FP8 or AWQ card), an answer about another format. It now says that no scheme of that engine reads
    them and links to the engine's page, which lists what it reads, once. Every vLLM scheme today reads some format
    vLLM-Gaudi reads (and since gaudi43-audit-2026-12-05 every format of vLLM's is one some vLLM-Gaudi scheme reads),
    so the case is made by serving the index with one vLLM scheme reading two formats of the atlas vLLM-Gaudi reads none
    of."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    engines = {e["id"]: e for e in index["records"]["engine"]}
    formats = {f["id"]: f for f in index["records"]["format"]}
    host, platform, plugin = next((e["id"], platform, plugin) for e in engines.values()
                                  for platform, plugin in sorted(e.get("through_plugin", {}).items()))
    target = next(t["id"] for t in index["records"]["hardware-target"] if t["platform"] == platform)
    read = {f for p in index["records"]["scheme"] if p["engine"] == plugin for f in p["formats"]}
    pair = sorted(set(formats) - read)[:2]
    unread = dict(next(s for s in sorted(index["records"]["scheme"], key=lambda s: s["id"]) if s["engine"] == host
                       and s["formats"]), formats=pair)
    added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                           {"source": WITH_FORMATS % json.dumps([unread["id"], pair])})
    try:
        browser.open(f"{PAGE}?engine={host}&scheme={unread['id']}&hardware=target:{target}")
        card = _shown(browser, "const c = document.querySelector('#atlas-answer .atlas-card'); return c && "
                               "{text: c.textContent, links: [...c.querySelectorAll('a')].map(a => [a.getAttribute('href'), "
                               "a.pathname, a.textContent])}", "plugin card")
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
    name = engines[plugin]["name"]
    assert not [href for href, _, _ in card["links"] if href.startswith(f"?engine={plugin}&")]
    # said once: the card's first paragraph says none of the plugin's schemes reads it (wording through_plugin_none),
    # and the link's paragraph once said it again in other words ("No scheme of vLLM-Gaudi in the atlas reads MXFP4")
    said = re.findall(rf"(?:none of {re.escape(name)}'s schemes|No (?:dense|expert)-layer scheme of {re.escape(name)}) in the atlas reads "
                      rf"{re.escape(' or '.join(formats[f]['name'] for f in unread['formats']))}", card["text"])
    assert len(said) == 1, card["text"]
    assert f"What {name} supports: {name}\u2019s page" in card["text"]
    assert [path for _, path, text in card["links"] if text == f"{name}\u2019s page"] == [f"/engines/{plugin}/"]
    # and the comparison of every engine for each of them, the second on its own
    assert [(href, text) for href, _, text in card["links"] if href.startswith("?engine=any&")] == [
        (f"?engine=any&format={f}&hardware=target%3A{target}", ("Every" if n else "every") +
         f" engine reading {formats[f]['name']} here") for n, f in enumerate(pair)]
    assert browser.console_errors() == []


def test_a_platform_plugins_card_names_its_host_engine_under_release(browser: Browser, built_site: Path) -> None:
    """A vLLM-Gaudi answer on a Gaudi part once named only "vLLM-Gaudi v0.26.0" under Release, so nothing on the card
    said that it runs only inside vLLM, installed beside it. The Release line now says so from plugin_of, with a link to
    the host's page; a host engine's own card says nothing of the kind."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    engines = {e["id"]: e for e in index["records"]["engine"]}
    plugin = next(e for e in engines.values() if e.get("plugin_of"))
    host, platforms = engines[plugin["plugin_of"]["engine"]], plugin["plugin_of"]["platforms"]
    scheme, target = next((c["scheme"], c["target"]) for c in json.loads(
        (built_site / "api/cells.json").read_text(encoding="utf-8"))["cells"]
        if any(s["id"] == c["scheme"] and s["engine"] == plugin["id"] for s in index["records"]["scheme"]))
    browser.open(f"{PAGE}?engine={plugin['id']}&scheme={scheme}&hardware=target:{target}")
    release = _card(browser)["facts"]["Release"]
    assert release.startswith(f"{plugin['name']} {plugin['version_read']}, a platform plugin of {host['name']} for "
                              f"{', '.join(platforms)}, installed beside it and loaded by it")
    links = browser.js("return [...document.querySelectorAll('#atlas-answer .atlas-card dd a')]"
                       f".filter(a => a.textContent === {json.dumps(host['name'])}).map(a => a.pathname)")
    assert links == [f"/{host['page']}"]
    _pick(browser, engine=host["id"], scheme="vllm-awq-marlin", hardware="part:a10")
    assert "platform plugin" not in _card(browser)["facts"]["Release"]


# the page's cells of a target as fetched, without those of the schemes named: schemes with no candidate list there
WITHOUT_CELLS = """const dropped = %s; const real = window.fetch;
window.fetch = function (url) {
  return real.apply(this, arguments).then(function (r) {
    if (!/data\\/targets\\/[^\\/]+\\.json$/.test(String(url))) return r;
    return r.json().then(function (doc) {
      doc.cells = doc.cells.filter(function (c) { return dropped.indexOf(c.scheme) < 0; });
      return new Response(JSON.stringify(doc), {status: 200, headers: {'Content-Type': 'application/json'}});
    });
  });
};"""


def test_the_schemes_a_card_says_read_the_format_here_are_those_with_a_cell_here(browser: Browser, built_site: Path,
                                                                                  cells: dict) -> None:
    """"vLLM's schemes reading FP8 here" on a vLLM-Gaudi card off the plugin's platforms (and "vLLM-Gaudi's schemes
    reading F here" on a vLLM card on Gaudi) once listed every scheme of the other engine reading the format, whether or
    not it has a cell on this hardware's target: a scheme with no candidate list for the platform, or one not read,
    answers nothing here, and its link opened a card saying so. Today every such scheme of vLLM has a cell on every
    platform but hpu, so the case is made by serving the target's cells without some schemes': the card links only
    those left, and where none is left it says none has a cell here and links the engine's page instead."""
    index = json.loads((built_site / "api/index.json").read_text(encoding="utf-8"))
    engines = {e["id"]: e for e in index["records"]["engine"]}
    schemes = {s["id"]: s for s in index["records"]["scheme"]}
    plugin = next(e for e in engines.values() if e.get("plugin_of"))
    host = engines[plugin["plugin_of"]["engine"]]
    target = next(t for t in sorted(index["records"]["hardware-target"], key=lambda t: t["order"])
                  if t["platform"] in plugin["plugin_of"]["host_platforms"])
    scheme, theirs = next((s, sorted(h["id"] for h in schemes.values() if h["engine"] == host["id"]
                                     and s["formats"][0] in h["formats"] and h["layers"] == s["layers"]
                                     and (h["id"], target["id"]) in cells))
                          for s in schemes.values() if s["engine"] == plugin["id"] and len(s["formats"]) == 1 and sum(
                              h["engine"] == host["id"] and s["formats"][0] in h["formats"] and h["layers"] == s["layers"]
                              and (h["id"], target["id"]) in cells for h in schemes.values()) > 1)
    kind = WORDS["layer_schemes"][scheme["layers"]]  # type: ignore[index]
    fmt = next(f["name"] for f in index["records"]["format"] if f["id"] == scheme["formats"][0])
    query = f"?engine={plugin['id']}&scheme={scheme['id']}&hardware=target:{target['id']}"
    read = "const c = document.querySelector('#atlas-answer .atlas-card'); return c && {text: c.textContent, " \
           "links: [...c.querySelectorAll('a')].map(a => [a.getAttribute('href'), a.pathname])}"
    for dropped in (theirs[:1], theirs):
        added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                               {"source": WITHOUT_CELLS % json.dumps(dropped)})
        try:
            browser.open(PAGE + query)
            card = _shown(browser, read, "plugin-elsewhere card")
        finally:
            browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
        sent = sorted(href.split("scheme=")[1].split("&")[0] for href, _ in card["links"]
                      if href.startswith(f"?engine={host['id']}&scheme="))
        assert sent == [s for s in theirs if s not in dropped], (dropped, card["text"])
        none = (f"None of {host['name']}\u2019s {kind} schemes reading {fmt} has a derived cell on this hardware, so the atlas "
                f"cannot say what it does here (a gap, not a refusal); what {host['name']} supports: {host['name']}\u2019s page")
        if sent:
            assert f"{host['name']}\u2019s {kind} {'scheme' if len(sent) == 1 else 'schemes'} reading {fmt} here: " \
                in card["text"] and none not in card["text"]
        else:
            assert none in card["text"] and "reading " + fmt + " here:" not in card["text"]
            assert f"/engines/{host['id']}/" in [path for _, path in card["links"]]
    assert browser.console_errors() == []


def test_the_card_says_the_fallback_past_the_conditions_fails_its_inferred_step(browser: Browser, cells: dict,
                                                                                names: dict) -> None:
    """ONNX Runtime's MatMulNBits on an A100 runs if at most 16 rows reach the fused GEMV; beyond, the dequantize path
    stays and multiplies in TF32 because the target fails its inferred 'at most 7.9' step. The card lists that step
    among those the verdict rests on, said as failed (api/cells.json's met), not as met."""
    cell = cells[("onnxruntime-matmulnbits-int4", "nvidia-sm80")]
    assert cell["verdict"] == "runs-if" and cell["known_by"] == "inferred"
    unmet = [s for s in cell["inferred_steps"] if not s["met"]]
    assert [s["kernel"] for s in unmet] == ["onnxruntime-cuda-dequant-gemm"]
    browser.open(f"{PAGE}?engine=onnxruntime&scheme=onnxruntime-matmulnbits-int4&hardware=part:a100-80gb-sxm4")
    assert _card(browser)["verdict"] == "runs-if"
    items = browser.js("return [...document.querySelectorAll('#atlas-answer .atlas-card__inferred li')]"
                       ".map(li => li.textContent)")
    assert len(items) == len(cell["inferred_steps"])
    for text, step in zip(items, cell["inferred_steps"]):
        said = "fails a step marked inferred and computes otherwise" if not step["met"] else "meets a step marked inferred"
        assert text.startswith(f"{names['kernel/' + step['kernel']]} {said}: {step['checks']}, read in ")
    assert any("fails a step marked inferred and computes otherwise: compute capability at most 7.9" in t for t in items)


def test_the_card_and_the_comparison_lead_with_the_kernel_a_default_install_runs(browser: Browser, cells: dict,
                                                                                names: dict) -> None:
    # conch-triton-kernels is no requirement of a CUDA wheel: on an RTX 5090 a default install runs Humming, and the
    # card and the comparison say so first, naming Conch as the kernel the package brings, at either width
    cell = cells[("vllm-ct-wna16-8-asym", "nvidia-sm120")]
    humming, conch = names[f"kernel/{cell['default_kernel']}"], names[f"kernel/{cell['kernel']}"]
    said = f"{humming} on a default install; {conch} with package conch-triton-kernels installed"
    for size in (DESKTOP, PHONE):
        browser.open(f"{PAGE}?engine=vllm&scheme=vllm-ct-wna16-8-asym&hardware=part:rtx-5090", size)
        card = _card(browser)
        assert card["verdict"] == "runs" and card["kernel"] == humming and card["facts"]["Kernel"] == said
        assert "A default install selects" not in card["facts"]
        browser.open(f"{PAGE}?engine=any&format=w8a16-int8&hardware=part:rtx-5090", size)
        row = next(r for r in _comparison(browser)["rows"] if r["scheme"] == "vllm-ct-wna16-8-asym")
        assert row["verdict"] == "runs" and row["kernel"] == said
    assert browser.console_errors() == []


def test_the_card_says_the_lead_the_python_derivation_says_on_every_cell_that_has_one(browser: Browser, real_atlas,
                                                                                     names: dict) -> None:
    """can-i-run-it.js mirrors derive/default_lead.py (defaultLead, kernelLead): on every cell whose kernel a default
    install does not select, the card's Kernel line is the Python lead's sentence with the kernels' names, word for
    word (the default kernel, where, what a default install gets from it and what that kernel needs, the opt-in)."""
    from generators.derive.default_lead import default_lead, lead_texts
    from generators.derive.wording import fill, words
    leads = {key: lead for key, cell in real_atlas.views.cells.items() if (lead := default_lead(cell))}
    assert len(leads) >= 40 and any(lead.needs for lead in leads.values())
    for (scheme, target), lead in sorted(leads.items()):
        engine = real_atlas.views.cells[(scheme, target)].engine
        browser.open(f"{PAGE}?engine={engine}&scheme={scheme}&hardware=target:{target}")
        said = fill(words("default_lead"), default=names[f"kernel/{lead.default}"], opted=names[f"kernel/{lead.opted}"],
                    **lead_texts(lead))
        assert _card(browser)["facts"]["Kernel"] == said, (scheme, target)
    assert browser.console_errors() == []


# the picked target's cells as fetched, with every condition, kernel id and opt-in made hostile where a cell has a lead
HOSTILE_LEAD = "const bad = " + json.dumps(HOSTILE) + """; const real = window.fetch;
window.fetch = function (url) {
  return real.apply(this, arguments).then(function (r) {
    if (!/data\\/targets\\/[^/]+\\.json$/.test(String(url))) return r;
    return r.json().then(function (doc) {
      doc.cells.forEach(function (c) {
        if (!c.default_kernel || c.default_kernel === c.kernel) return;
        var mark = function (x) { return x + bad + '|'; };
        c.default_where = (c.default_where || []).concat([bad]);
        (c.opt_in || []).forEach(function (a) { a.condition = mark(a.condition); });
        c.otherwise.forEach(function (s) { if (s.selected === c.default_kernel) s.conditions = s.conditions.map(mark); });
        c.kernel = mark(c.kernel);
      });
      return new Response(JSON.stringify(doc), {status: 200, headers: {'Content-Type': 'application/json'}});
    });
  });
};"""


def test_record_text_in_the_kernel_lead_stays_text(browser: Browser) -> None:
    """The card's Kernel line fills WORDS' lead with record text (the opt-in's conditions, where, what the default
    kernel needs, an unknown kernel id shown as written): as text nodes, never parsed as HTML."""
    added = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOSTILE_LEAD})
    try:
        for scheme, target in (("vllm-fp8-block", "nvidia-sm90"), ("vllm-ct-wna16-8-asym", "nvidia-sm120")):
            browser.open(f"{PAGE}?engine=vllm&scheme={scheme}&hardware=target:{target}")
            shown = _shown(browser, """const card = document.querySelector('#atlas-answer .atlas-card');
                if (!card) return null;
                const dt = [...card.querySelectorAll('dt')].find(d => d.textContent === 'Kernel');
                return {imgs: document.querySelectorAll('#atlas-answer img').length, owned: window.__owned || 0,
                        kernel: dt.nextElementSibling.textContent};""", "answer card")
            assert shown["imgs"] == 0 and shown["owned"] == 0, (scheme, target)
            assert shown["kernel"].count(HOSTILE) >= 3, shown["kernel"]  # the opted id, where, the opt-in
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


WHOLE_CHECKPOINT = """
const card = document.querySelector('#atlas-answer .atlas-card');
if (!card) return null;
const whole = card.querySelector('.atlas-card__whole');
return {verdict: card.dataset.verdict, whole: whole ? {verdict: whole.dataset.verdict, text: whole.textContent,
        badge: whole.querySelector('.atlas-verdict').className, links: [...whole.querySelectorAll('a')].map(a => a.href)} : null};
"""


def test_an_expert_layer_card_adds_the_whole_checkpoint_which_its_other_layers_can_make_worse(browser: Browser,
                                                                                            cells: dict) -> None:
    """vLLM's compressed-tensors NVFP4 MoE experts on a V100 fall back to emulation, and that stays the card's verdict;
    the checkpoint's other linear layers are another scheme's, refused there, so the card adds the whole checkpoint's
    verdict, the worse, with that scheme linked and its answer one click away; the comparison's row says it too. The
    dense scheme's own card has no such line."""
    moe, dense, target = "vllm-ct-w4a4-nvfp4-moe", "vllm-ct-w4a4-nvfp4", "nvidia-sm70"
    whole = cells[(moe, target)]["whole_checkpoint"]
    assert whole["scheme"] == dense and whole["verdict"] == cells[(dense, target)]["verdict"] != cells[(moe, target)]["verdict"]
    browser.open(f"{PAGE}?engine=vllm&scheme={moe}&hardware=part:v100")
    card = _shown(browser, WHOLE_CHECKPOINT, "answer card")
    assert card["verdict"] == cells[(moe, target)]["verdict"]  # the expert layers' own verdict, unchanged
    assert card["whole"]["verdict"] == whole["verdict"] and card["whole"]["badge"].endswith(f"--{whole['verdict']}")
    said = WORDS["whole_checkpoint_decided"][whole["decided_by"]]
    assert card["whole"]["text"].startswith(f"Whole checkpoint: Refused ({said}): the checkpoint's other linear layers, scheme ")
    assert whole["why"] in card["whole"]["text"]
    paths = [urlsplit(h).path for h in card["whole"]["links"]]
    assert paths[0] == f"/schemes/{dense}/"
    answer = parse_qs(urlsplit(card["whole"]["links"][-1]).query)
    assert answer == {"engine": ["vllm"], "scheme": [dense], "hardware": ["part:v100"]}
    browser.open(f"{PAGE}?engine=vllm&scheme={dense}&hardware=part:v100")
    card = _shown(browser, WHOLE_CHECKPOINT, "answer card")
    assert card["verdict"] == whole["verdict"] and card["whole"] is None
    browser.open(f"{PAGE}?engine=any&format=nvfp4&hardware=part:v100")
    _comparison(browser)
    row = browser.js(f"""const tr = document.querySelector('#atlas-answer .atlas-compare tr[data-scheme="{moe}"]');
        const w = tr.querySelector('.atlas-compare__whole');
        return {{verdict: tr.dataset.verdict, whole: w && w.dataset.verdict, link: w && w.querySelector('a').href}};""")
    assert row["verdict"] == cells[(moe, target)]["verdict"] and row["whole"] == whole["verdict"]
    assert parse_qs(urlsplit(row["link"]).query)["scheme"] == [dense]
    # the row ranks by the whole checkpoint: its experts' fallback does not put a refused checkpoint first
    order = browser.js("""return [...document.querySelectorAll('#atlas-answer .atlas-compare tbody tr[data-verdict]')]
        .filter(tr => tr.dataset.verdict).map(tr => {const w = tr.querySelector('.atlas-compare__whole');
        return w ? w.dataset.verdict : tr.dataset.verdict;});""")
    assert order == sorted(order, key=ORDER.index) and whole["verdict"] in order, order
    assert browser.console_errors() == []


def test_a_whole_checkpoint_runs_if_says_what_a_default_install_gets(browser: Browser, cells: dict) -> None:
    """vLLM's block FP8 experts run on an L4; the checkpoint's other linear layers run as specified only with a flag,
    and a default install gives them a kernel that falls back, so the whole checkpoint is "Runs if" and, on a default
    install, a fallback: the card says the second with that kernel linked and its verdict's badge (as explain does),
    and the comparison row adds it after the whole checkpoint's verdict; a reader without the flag is not left reading
    "Runs if" alone."""
    found = [(key, c["whole_checkpoint"]) for key, c in cells.items()
             if key[1] == "nvidia-sm89" and (c.get("whole_checkpoint") or {}).get("by_default")]
    assert found, "no whole checkpoint on SM 8.9 that a default install makes worse: this test checks nothing"
    (moe, _), whole = found[0]
    browser.open(f"{PAGE}?engine=vllm&scheme={moe}&hardware=part:l4")
    card = _shown(browser, WHOLE_CHECKPOINT, "answer card")
    layers = WORDS["whole_checkpoint_layers"][whole["default_layers"]]
    assert f"on a default install ({layers} kernel named first) the whole checkpoint: " in card["whole"]["text"], card
    assert "on a default install" in card["whole"]["text"].split(" run on this target by ")[1], card
    assert any(urlsplit(h).path == f"/kernels/{whole['default_kernel']}/" for h in card["whole"]["links"]), card
    badge = browser.js("return document.querySelector('#atlas-answer .atlas-card__whole .atlas-whole__default').className")
    assert f"atlas-verdict--{whole['by_default']}" in badge.split(), badge
    fmt = yaml.safe_load((Path(__file__).parents[2] / "records/schemes" / f"{moe}.yaml").read_text())["formats"][0]
    browser.open(f"{PAGE}?engine=any&format={fmt}&hardware=part:l4")
    _comparison(browser)
    row = browser.js(f"""const tr = document.querySelector('#atlas-answer .atlas-compare tr[data-scheme="{moe}"]');
        const d = tr && tr.querySelector('.atlas-compare__whole-default');
        return d && d.className;""")
    assert row and f"atlas-verdict--{whole['by_default']}" in row.split(), row
    assert browser.console_errors() == []
