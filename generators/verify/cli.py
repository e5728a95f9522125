"""The `verify` subcommand: run an engine release's own kernel selection for every modelled cell and record it."""
from __future__ import annotations

from typing import Any

import argparse
import re
import sys
from pathlib import Path


def register(sub: Any) -> None:
    """Add `verify ENGINE==X.Y.Z` to the command line's subparsers."""
    verify = sub.add_parser("verify", help="run an engine release's own kernel selection and write its observation record")
    verify.add_argument("release", help="engine and release, e.g. vllm==0.33.0")
    verify.add_argument("--cache", default=None, help="environment cache (default $ATLAS_VERIFY_CACHE or ~/.cache/atlas-verify)")
    verify.add_argument("--reuse", action="store_true",
                        help="re-read the raw results of the last run when the jobs are unchanged (re-fold only)")
    verify.set_defaults(handler=handle)


def handle(args: argparse.Namespace, root: Path) -> int:
    from ..build import check_tree
    from .environment import EnvironmentError_, cache_dir, ensure_release
    from .run import PROBE, verify

    match = re.fullmatch(r"([a-z][a-z0-9-]*)==([0-9]+(?:\.[0-9]+)+)", args.release)
    if not match or match.group(1) != "vllm":
        print(f"error: expected vllm==X.Y.Z, got {args.release!r}", file=sys.stderr)
        return 2
    atlas, problems = check_tree(root)
    if atlas is None:
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1
    log = lambda text: print(text, file=sys.stderr)  # noqa: E731
    try:
        env = ensure_release(match.group(1), match.group(2), cache_dir(args.cache), PROBE, log)
    except EnvironmentError_ as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    path = verify(root, atlas, match.group(1), match.group(2), env, log, reuse=args.reuse)
    print(path.relative_to(root).as_posix())
    return 0
