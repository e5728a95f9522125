"""A past side of the changelog, evaluated by the code it was committed with.

What a commit did to the cells is what its own generators/ derived from its own records/ and schema/, against what
its parent's code derived from the parent's: today's code may not read an older side at all (a field made required
since, a record kind reshaped), and where it does it derives what today's rules say, not what the site said then.
So a side whose generators/ tree is not the running code's is written from git's object database into a temporary
folder (revisions.materialise: blobs only, links made dangling) and summarised by a child Python process that
imports that folder's package (SCRIPT): the cells, counts and agreements the comparison reads (diff_model.ChangeSummary),
as JSON on its standard output. The child runs with the on-disk cache off (an older code's tables would replace
today's) and sees nothing of this process but its interpreter and the libraries installed for it.

A side whose code cannot summarise (it fails to build, it predates the functions SCRIPT calls, it crashes or runs
too long) counts as not building. Summaries are kept on disk by the trees of the side's generators/, schema/ and
records/ and SCRIPT's version, and by the versions of the libraries that side's code reads its records and schemas
with (LIBRARIES): they do not depend on today's code, so a code change does not recompute them, but an upgrade of one of
those libraries does (it may parse or validate a side otherwise, and a warm machine would keep showing what a fresh one
no longer derives).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .cache import ContentCache, cache_dir
from .diff_model import ChangeSummary
from .revisions import SITE_PATHS, materialise

CODE = "generators"
INPUTS = ("schema", "records")  # with the code, all a side's summary reads
TIMEOUT = 300  # seconds: a side's check is a few seconds; a hung child must not hang the build
KEPT = 16  # summaries kept on disk beyond those a walk used
VERSION = "1"  # of SCRIPT's output: bump when it changes, so kept summaries are recomputed
# the distributions a side's code parses and validates its records and schemas with (the summary is derived data, so
# the page libraries, Jinja2 and MarkupSafe, do not change it)
LIBRARIES = ("pyyaml", "yaml-rs", "jsonschema", "jsonschema-rs", "referencing", "rfc3986-validator", "orjson")

# Run by one commit's own package (argv[1]: the folder holding it; argv[2:]: the project roots of the sides that code
# summarises), a JSON answer per side on one line. diff.summary_of where the code has it; else the same words from
# the functions its diff module has had since the changelog began.
SCRIPT = r"""
import json, sys
from pathlib import Path
code = Path(sys.argv[1]).resolve()
import generators
if Path(generators.__file__).resolve().parent.parent != code:
    print(json.dumps([{"builds": False, "why": "not the commit's package"}] * len(sys.argv[2:]))); raise SystemExit
from generators.build import check_stages
from generators import diff

def summary(root):
    atlas = check_stages(root, views=diff.CHANGE_VIEWS).atlas
    if atlas is None:
        return {"builds": False, "why": "the side does not build"}
    if hasattr(diff, "summary_of"):
        return {"builds": True, "summary": diff.summary_of(atlas).as_json()}
    cells = []
    for (scheme, target), cell in sorted(atlas.views.cells.items()):
        conditions, steps = diff._terms(cell)
        cells.append([scheme, target, str(cell.verdict), diff._cell_detail(cell), list(conditions),
                      [[s.unless, s.kernel, s.outcome] for s in steps]])
    counts = [[acc, what + " formats", getattr(tally, what + "_count")]
              for acc, tally in sorted(atlas.views.tallies.items()) for what in ("native", "emulated")]
    published = [[p.matrix, p.row, p.column, diff._agreement(p)] for p in atlas.views.published]
    agreeing = sum(1 for p in atlas.views.published if p.comparable and p.agrees)
    return {"builds": True, "summary": {"cells": cells, "counts": counts, "published": published,
                                        "agreeing": agreeing}}

answers = []
for root in sys.argv[2:]:
    try:
        answers.append(summary(Path(root).resolve()))
    except Exception as error:
        answers.append({"builds": False, "why": type(error).__name__})
print(json.dumps(answers))
"""


# Run by one commit's own package (argv[1]: the folder holding it; argv[2]: the side's project root; argv[3]: the file
# to write): the pages that side renders (diff.build_side: its generated and hand-written pages) and each cell's content
# as that code derives it (diff.cell_contents, where the code has it: [scheme, target, content] rows), as one JSON
# object. A code whose contents fail still gives its pages.
PAGES_SCRIPT = r"""
import json, sys
from pathlib import Path
import generators
if Path(generators.__file__).resolve().parent.parent != Path(sys.argv[1]).resolve():
    raise SystemExit(3)
from generators import diff
side = diff.build_side(Path(sys.argv[2]).resolve())
contents = None
if side.atlas is not None and hasattr(diff, "cell_contents"):
    try:
        contents = [[*key, content] for key, content in sorted(diff.cell_contents(side.atlas).items())]
    except Exception:
        contents = None
Path(sys.argv[3]).write_text(json.dumps({"pages": side.pages, "contents": contents}), encoding="utf-8")
"""


def library_versions() -> str:
    """The installed version of each of LIBRARIES ("-" for one not installed): part of the kept summaries' salt."""
    from importlib import metadata  # (only where a changelog walk keeps summaries: it costs more to import than to ask)
    found = []
    for name in LIBRARIES:
        try:
            found.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}==-")
    return ",".join(found)


def code_tree(root: Path, prefix: str, sha: str) -> str | None:
    """The git tree id of generators/ at a commit, or None when the commit has none."""
    result = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "-q", f"{sha}:{prefix}{CODE}"],
                            capture_output=True, text=True, check=False)
    return result.stdout.strip() or None if result.returncode == 0 else None


def running_code_tree() -> str | None:
    """The git tree id of the running package: its folder at HEAD in the git work tree it was loaded from, when
    nothing in it differs from HEAD (then a commit whose generators/ is that tree is this very code, whichever clone
    it sits in); else None (not in a work tree, or edited since: no commit is then the running code)."""
    package = Path(__file__).resolve().parent
    top = subprocess.run(["git", "-C", str(package), "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                         check=False)
    if top.returncode != 0 or not top.stdout.strip():
        return None
    work_tree = Path(top.stdout.strip()).resolve()
    folder = package.relative_to(work_tree).as_posix() if package.is_relative_to(work_tree) else None
    if folder is None:
        return None
    status = subprocess.run(["git", "--no-optional-locks", "-C", str(work_tree), "status", "--porcelain", "-z",
                             "--untracked-files=all", "--", f":(top){folder}"], capture_output=True, check=False)
    if status.returncode != 0 or status.stdout:
        return None
    tree = subprocess.run(["git", "-C", str(work_tree), "rev-parse", "--verify", "-q", f"HEAD:{folder}"],
                          capture_output=True, text=True, check=False)
    return tree.stdout.strip() or None if tree.returncode == 0 else None


class OwnCode:
    """The sides of one changelog walk that their own code summarises: the running code's tree (asked once), the
    summaries kept on disk (one table, saved once at the end of the walk: save() keeps only what a run used)."""

    def __init__(self, root: Path, prefix: str):
        self.root, self.prefix = root, prefix
        self.running = running_code_tree()
        self.table = (ContentCache("own-code-sides", f"{VERSION}|{sys.version}|{library_versions()}")
                      if cache_dir() is not None else None)
        self.summaries: dict[str, ChangeSummary | None] = {}  # by code tree and inputs id, this walk's

    def code_of(self, sha: str) -> str | None:
        """The commit's generators/ tree when it is not the running code (its own code must summarise it), else
        None (the commit has no generators/, as a project whose code lives elsewhere, or it is the running code)."""
        code = code_tree(self.root, self.prefix, sha)
        return code if code is not None and code != self.running else None

    def inputs_id(self, sha: str) -> str:
        """The git tree ids of the commit's records/ and schema/, as the changelog keys its sides (the commit id
        when either is missing)."""
        result = subprocess.run(["git", "-C", str(self.root), "rev-parse", f"{sha}:{self.prefix}records",
                                 f"{sha}:{self.prefix}schema"], capture_output=True, text=True, check=False)
        return result.stdout.replace("\n", " ").strip() if result.returncode == 0 else sha

    def prefetch(self, sides: list[tuple[str, str, str]]) -> None:
        """Summarise these sides ((sha, code tree, inputs id), code from code_of) at once: one child per code tree
        (it imports its package once and checks each of its sides, which share most of their records), as many at
        a time as there are cores. The walk needs them all (a side that does not build leaves its other side
        unneeded, a few seconds of one core at worst)."""
        by_code: dict[str, dict[str, str]] = {}  # code tree -> {key: sha}
        for sha, code, inputs_id in sides:
            key = f"{code}|{inputs_id}"
            if key not in self.summaries and self._kept(key) is None:
                by_code.setdefault(code, {}).setdefault(key, sha)
        if not by_code:
            return
        groups = list(by_code.values())
        with ThreadPoolExecutor(max_workers=max(1, min(len(groups), os.cpu_count() or 1))) as pool:
            answers = list(pool.map(lambda group: _child_summaries(self.root, self.prefix, list(group.values())),
                                    groups))
        for group, found in zip(groups, answers):
            for key, data in zip(group, found):
                self._keep(key, data)

    def summarise(self, sha: str, code: str, inputs_id: str) -> ChangeSummary | None:
        """The side at commit `sha` as its own code summarises it (None: it does not build)."""
        key = f"{code}|{inputs_id}"
        if key not in self.summaries:
            kept = self._kept(key)
            if kept is not None:
                self.summaries[key] = kept[0]
            else:
                self._keep(key, _child_summaries(self.root, self.prefix, [sha])[0])
        return self.summaries[key]

    def _kept(self, key: str) -> tuple[ChangeSummary | None] | None:
        """(the summary or None when the side does not build) from the disk, or None when not kept there."""
        kept = self.table.get(key) if self.table is not None else None
        if not isinstance(kept, dict):
            return None
        try:
            return (ChangeSummary.from_json(kept) if kept else None,)
        except (KeyError, TypeError, ValueError):
            return None

    def _keep(self, key: str, data: dict[str, Any] | None) -> None:
        try:
            summary = ChangeSummary.from_json(data) if data is not None else None
        except (KeyError, TypeError, ValueError):
            summary = None
        self.summaries[key] = summary
        if self.table is not None:
            self.table.put(key, summary.as_json() if summary is not None else {})

    def save(self) -> None:
        """Write the table when a summary was added, keeping the other entries too (up to KEPT of them): a walk
        whose commits were all found in the changelog's own table built no side, and those sides are needed again
        after the next code change empties that table."""
        if self.table is None or not self.table.changed:
            return
        for key, value in list(self.table.entries.items())[-KEPT:]:
            self.table.used.setdefault(key, value)
        self.table.save()


def rendered_by_own_code(root: Path, prefix: str, sha: str) -> tuple[dict[str, str] | None,
                                                                   dict[tuple[str, str], dict[str, Any]] | None]:
    """The pages commit `sha` renders with its own generators/ (diff.build_side, run by a child on the commit's code
    and site paths written from git) and its cells' contents as that code derives them (diff.cell_contents); each is
    None where that code gives none (the side does not build, the code predates the function, fails or runs too
    long)."""
    with tempfile.TemporaryDirectory(prefix="atlas-pages-") as tmp:
        code = materialise(root, sha, prefix, Path(tmp) / "code", (CODE,))
        side = materialise(root, sha, prefix, Path(tmp) / "side", SITE_PATHS)
        answer = Path(tmp) / "pages.json"
        try:
            result = subprocess.run([sys.executable, "-c", PAGES_SCRIPT, str(code), str(side), str(answer)], cwd=code,
                                    env=_child_env(code), capture_output=True, timeout=TIMEOUT, check=False)
            data = json.loads(answer.read_text(encoding="utf-8")) if result.returncode == 0 else None
        except (OSError, ValueError, subprocess.TimeoutExpired):
            return None, None
    if not isinstance(data, dict):
        return None, None
    pages, contents = data.get("pages"), data.get("contents")
    if not isinstance(pages, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in pages.items()):
        pages = None
    return pages, _contents(contents)


def _contents(rows: Any) -> dict[tuple[str, str], dict[str, Any]] | None:
    """The contents PAGES_SCRIPT wrote ([scheme, target, content] rows), or None for anything else."""
    if not isinstance(rows, list) or not all(isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)
                                             and isinstance(row[1], str) and isinstance(row[2], dict) for row in rows):
        return None
    return {(scheme, target): content for scheme, target, content in rows}


def _child_env(code: Path) -> dict[str, str]:
    """A child's environment: none of this process's Python or atlas settings, the commit's package first on the path,
    no bytecode written into the temporary folder, and the on-disk cache off (an older code's tables would replace
    today's)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "ATLAS_"))}
    env.update(PYTHONPATH=str(code), PYTHONDONTWRITEBYTECODE="1", ATLAS_CACHE="off")
    return env


def _child_summaries(root: Path, prefix: str, shas: list[str]) -> list[dict[str, Any] | None]:
    """The summary data of each commit (None where it does not build), all by the first one's code (they share it):
    its generators/ written once, each side's schema/ and records/ in a folder of its own."""
    with tempfile.TemporaryDirectory(prefix="atlas-side-") as tmp:
        code = materialise(root, shas[0], prefix, Path(tmp) / "code", (CODE,))
        sides = [materialise(root, sha, prefix, Path(tmp) / f"side-{n}", INPUTS) for n, sha in enumerate(shas)]
        try:
            result = subprocess.run([sys.executable, "-c", SCRIPT, str(code), *map(str, sides)], cwd=code,
                                    env=_child_env(code), capture_output=True, text=True, timeout=TIMEOUT * len(shas),
                                    check=False)
        except (OSError, subprocess.TimeoutExpired):
            return [None] * len(shas)
    try:
        answers = json.loads(result.stdout.strip().splitlines()[-1]) if result.returncode == 0 else None
    except (ValueError, IndexError):
        answers = None
    if not isinstance(answers, list) or len(answers) != len(shas):
        return [None] * len(shas)
    return [answer["summary"] if isinstance(answer, dict) and answer.get("builds") is True
            and isinstance(answer.get("summary"), dict) else None for answer in answers]
