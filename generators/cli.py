"""Command line: `python -m generators check|build|explain|cells|diff|new|serve|site|types|verify`. Only this module (and MkDocs, for serve and site) prints."""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from pathlib import Path
from collections.abc import Sequence
from typing import Any

from typing import TYPE_CHECKING

from .problems import Problem
from .progress import Progress
from .verify.cli import register as register_verify

if TYPE_CHECKING:
    from .model.atlas import Atlas
    from .watch import Synced

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a command whose reader went away


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised like Ctrl-C so every `finally` (staging folders) runs."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; Ctrl-C (or SIGTERM, SIGHUP) anywhere prints one line and exits 128+signal, never a traceback."""
    previous = _raise_on_termination()
    try:
        return _main(argv)
    except Terminated as terminated:
        print("terminated", file=sys.stderr)
        return 128 + terminated.signum
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader left (`... | head`): stop quietly, as a shell command killed by SIGPIPE does
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's final flush of what the pipe refused raises nothing."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _raise_on_termination() -> dict[int, Any]:
    def terminate(signum: int, frame: Any) -> None:
        raise Terminated(signum)
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGHUP):
            previous[signum] = signal.signal(signum, terminate)
    return previous


def _main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown and getattr(args, "handler", None) is not _site:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if unknown:
        args.mkdocs_args = unknown  # passed on to mkdocs in order, e.g. `serve -a 127.0.0.1:8001`
    if not hasattr(args, "handler"):
        parser.print_help()
        return EXIT_USAGE
    root = Path(args.root).resolve()
    if not (root / "records").is_dir() or not (root / "schema").is_dir():
        print(f"error: {root} has no records/ and schema/ folders; pass --root", file=sys.stderr)
        return EXIT_USAGE
    return int(args.handler(args, root))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m generators",
                                     description="Validate the atlas records and generate the site's pages.")
    parser.add_argument("--root", default=".", help="project root holding records/, schema/ and docs/ (default: .)")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    check = sub.add_parser("check", help="load, validate, link, derive, check and render the chapters; print every problem")
    check.add_argument("--all-pages", action="store_true",
                       help="also render every record page and kind index and run the checks that read them "
                            "(search-ranking), as the site build does (slower on large atlases)")
    check.add_argument("--format", choices=("text", "github", "json"), default="text",
                       help="text (file:line:col), github (Actions annotations) or json")
    check.add_argument("--strict", action="store_true", help="fail on warnings too")
    check.add_argument("paths", nargs="*",
                       help="report the problems in these files or folders and those they cause elsewhere; "
                            "the exit code is still the whole tree's")
    check.set_defaults(handler=_check)

    build = sub.add_parser("build", help="write the complete Markdown tree (hand-written and generated pages)")
    build.add_argument("--out", required=True,
                       help="output folder: absent (parents are created), empty, or an earlier output, which is replaced whole")
    build.add_argument("--watch", action="store_true",
                       help="keep running: after each change to records, schemas or docs rewrite only the files that changed")
    build.add_argument("--engine-config", metavar="FILE",
                       help="also write a config for other engines (Zensical) in a folder containing --out")
    build.set_defaults(handler=_build)

    explain = sub.add_parser("explain", help="print the derivation trace of one support cell")
    explain.add_argument("scheme", help="scheme id, e.g. vllm-ct-w4a8-int")
    explain.add_argument("target", help="hardware-target id, e.g. x86-cpu-avx512")
    explain.set_defaults(handler=_explain)

    cells = sub.add_parser("cells", help="print every derived support cell")
    cells.add_argument("--format", choices=("text", "json"), default="text", help="text table or json")
    cells.set_defaults(handler=_cells)

    diff = sub.add_parser("diff", help="what a change does to the site, between two git revisions")
    diff.add_argument("base", help="base revision (e.g. origin/main, HEAD~1)")
    diff.add_argument("head", nargs="?", default=None, help="head revision (default: the working tree)")
    diff.add_argument("--format", choices=("markdown", "json"), default="markdown", help="markdown or json")
    diff.set_defaults(handler=_diff)

    for name, what in (("serve", "serve the site with live reload (mkdocs serve, without the theme's banner)"),
                       ("site", "build the static site (mkdocs build --strict, without the theme's banner)")):
        site = sub.add_parser(name, help=what)
        site.set_defaults(handler=_site, mkdocs_command="serve" if name == "serve" else "build", mkdocs_args=[])

    new = sub.add_parser("new", help="write a skeleton record with every required field")
    new.add_argument("kind", help="record kind, e.g. format")
    new.add_argument("id", help="record id (the file stem)")
    new.set_defaults(handler=_new)
    types = sub.add_parser("types", help="regenerate the record types (generators/model/fields.py) from schema/")
    types.add_argument("--check", action="store_true", help="only report whether the module is current (exit 1 if stale)")
    types.set_defaults(handler=_types)
    register_verify(sub)
    return parser


def _print_problems(problems: list[Problem], fmt: str = "text") -> None:
    if fmt == "json":
        print(json.dumps([p.as_dict() for p in problems], indent=2, ensure_ascii=False, allow_nan=False))
        return
    for problem in problems:
        print(problem.as_github() if fmt == "github" else str(problem))


def _failed(problems: list[Problem], strict: bool = False) -> bool:
    return any(p.severity == "error" or strict for p in problems)


def _check(args: argparse.Namespace, root: Path) -> int:
    from .build import cycle_collection_paused, run_pipeline
    from .path_scope import PathError, in_scope, tree_paths
    try:
        paths = tree_paths(root, args.paths)
    except PathError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    progress = Progress("check: rendering pages")
    try:  # chapters render: claims, literal numbers, undefined names
        with cycle_collection_paused(freeze=True):  # the process ends after the report: no collection to pay for
            run = run_pipeline(root, "docs", record_pages=args.all_pages, progress=progress.update,
                               keep=False)  # (no other tree is checked: the changelog's past trees are build's)
    finally:
        progress.close()
    shown = in_scope(run.problems, paths) if paths else run.problems
    _print_problems(shown, args.format)
    hidden = len(run.problems) - len(shown)
    if hidden:  # the exit code is the whole tree's: a partial check never turns a failing tree green
        print(f"{hidden} more problem(s) elsewhere in the tree; run check without paths to list them", file=sys.stderr)
    if args.format == "text":
        count = len(run.records)  # every record that loaded, whether or not the tree linked
        warnings = sum(1 for p in shown if p.severity != "error")
        strict = " (--strict fails on warnings)" if warnings and not args.strict else ""
        print(f"{count} records checked, {len(shown) - warnings} error(s), {warnings} warning(s){strict}", file=sys.stderr)
    return EXIT_PROBLEMS if _failed(run.problems, args.strict) else EXIT_OK


def _build(args: argparse.Namespace, root: Path) -> int:
    from .output import write_markdown_tree
    from .watch import watch
    if args.engine_config:
        from .portable import ConfigError, write_portable_config
        try:
            write_portable_config(root, Path(args.out), Path(args.engine_config))
        except ConfigError as error:
            print(f"error: {error}", file=sys.stderr)
            return EXIT_USAGE
    if not args.watch:
        progress = Progress("build: rendering pages")
        try:
            problems = write_markdown_tree(root, Path(args.out), progress=progress.update)
        finally:
            progress.close()
        _print_problems(problems)
        return EXIT_PROBLEMS if _failed(problems) else EXIT_OK
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        print(f"error: {out} is not an empty folder; choose an empty or new folder", file=sys.stderr)
        return EXIT_USAGE
    watch(root, out, _report_sync, announce=lambda line: print(line, file=sys.stderr, flush=True))
    return EXIT_OK


def _report_sync(synced: Synced) -> None:
    _print_problems(synced.problems)
    print(f"{len(synced.written)} file(s) written, {len(synced.removed)} removed", file=sys.stderr, flush=True)


def _types(args: argparse.Namespace, root: Path) -> int:
    from . import typegen
    if args.check:
        if typegen.is_current(root / "schema"):
            return EXIT_OK
        print(f"{typegen.MODULE.name} is stale: run `python -m generators types`", file=sys.stderr)
        return EXIT_PROBLEMS
    changed = typegen.write(root / "schema")
    print(f"{typegen.MODULE.name} {'rewritten' if changed else 'already current'}", file=sys.stderr)
    return EXIT_OK


def _atlas_or_report(root: Path) -> Atlas | None:
    from .build import check_tree, cycle_collection_paused
    with cycle_collection_paused(freeze=True):  # a one-off command: what the checks leave alive is kept to the end
        atlas, problems = check_tree(root)
    if atlas is None:  # records that do not load, validate or link cannot be derived from
        _print_problems(problems)
        return None
    return atlas


def _explain(args: argparse.Namespace, root: Path) -> int:
    from .explain import explain_text
    atlas = _atlas_or_report(root)
    if atlas is None:
        return EXIT_PROBLEMS
    text, ok = explain_text(atlas, args.scheme, args.target)
    print(text, file=sys.stdout if ok else sys.stderr)
    return EXIT_OK if ok else EXIT_USAGE


def _cells(args: argparse.Namespace, root: Path) -> int:
    from .explain import cells_json, cells_text
    atlas = _atlas_or_report(root)
    if atlas is None:
        return EXIT_PROBLEMS
    print(cells_json(atlas) if args.format == "json" else cells_text(atlas))
    return EXIT_OK


def _diff(args: argparse.Namespace, root: Path) -> int:
    from .diff import DiffError, diff_revisions
    try:
        report = diff_revisions(root, args.base, args.head)
    except DiffError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(report.to_json() if args.format == "json" else report.to_markdown())
    return EXIT_OK


def _new(args: argparse.Namespace, root: Path) -> int:
    from .skeleton import SkeletonError, write_skeleton
    try:
        path = write_skeleton(root, args.kind, args.id)
    except SkeletonError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(path.relative_to(root).as_posix())
    return EXIT_OK


def _site(args: argparse.Namespace, root: Path) -> int:
    from .site_commands import run_mkdocs
    extra = list(args.mkdocs_args)
    if args.mkdocs_command == "build" and "--strict" not in extra:
        extra.insert(0, "--strict")
    return run_mkdocs(args.mkdocs_command, ["-f", str(root / "mkdocs.yml"), *extra])
