"""Where a source can be read: its URL, or for code a permalink to the file at the cited revision.

A code source (repository, path, revision) links to https://github.com/OWNER/REPO/blob/REVISION/PATH
when the revision is a commit hash or a release tag; a revision written as prose ("rendered page;
commit not exposed") gives no permalink, and the URL, if any, is used instead. A path that names
several files ("a.py; b.py") links to the URL, else to the repository's tree at the revision. A file that exists only
in a published package, not in the repository (a compiled library such as libmlx.so, or the
package's metadata: *.dist-info/METADATA, PKG-INFO), has no permalink either, nor has a list of
files with one such among them: it links to its URL, else to the package's release page on PyPI
(its `package`, `name==version`; a local version label such as `+cpu` is dropped, PyPI serves none). The same holds
for the trees a package's build writes (torch/include, flashinfer/data, flashinfer_cubin/cubins, the DeepGEMM and
Triton kernels vLLM bundles under vllm/third_party, FlashInfer's top-level b12x shim, a .metallib) and for a path
written as prose ("vllm/ (the wheel's .abi3.so extensions)", "torch.finfo (c10 float8 types)"), which names no file.
The path "." (a whole source tree) links to the repository's tree at the revision.
"""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

# a commit hash, or a release tag: a digit (after an optional v), then letters, digits and single separators, never last.
# Each character has one way to match (a separator only where a letter or digit follows), so a long revision written
# as prose fails in linear time; the nested form `(?:[-.+]?[A-Za-z0-9]+)*` it replaced backtracked exponentially and hung
# the build on one source record.
_REVISION = re.compile(r"^(?:[0-9a-f]{7,40}|v?\d(?:[A-Za-z0-9]|[-.+](?=[A-Za-z0-9]))*)$")
_PACKAGE_ONLY = re.compile(
    r"\.(?:so|pyd|dll|dylib|metallib)$|\.(?:dist|egg)-info/|(?:^|/)PKG-INFO$"
    r"|^(?:torch/include|flashinfer/data|flashinfer_cubin/cubins|vllm/third_party/(?:deep_gemm|triton_kernels)|b12x)/"
    r"|\s\(")
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9][A-Za-z0-9.+!_-]*)$")


def _package_only(path: str) -> bool:
    return any(_PACKAGE_ONLY.search(part) for part in path.split("; "))


def permalink(source: dict[str, Any]) -> str | None:
    """The file at the cited revision on GitHub; None when repository, path or a usable revision is missing, when the
    path names several files, or when the file exists only in a published package."""
    repository, path, revision = source.get("repository"), source.get("path"), source.get("revision")
    if not (repository and path and revision and _REVISION.match(str(revision))):
        return None
    if "; " in str(path) or _package_only(str(path)):
        return None
    if str(path).strip("/") == ".":
        return f"https://github.com/{repository}/tree/{quote(str(revision))}"
    line = f"#L{source['line']}" if isinstance(source.get("line"), int) else ""
    return f"https://github.com/{repository}/blob/{quote(str(revision))}/{quote(str(path))}{line}"


def tree_link(source: dict[str, Any]) -> str | None:
    """The repository's tree at the cited revision, for a path naming several files of the repository."""
    repository, path, revision = source.get("repository"), str(source.get("path") or ""), source.get("revision")
    if not (repository and "; " in path and revision and _REVISION.match(str(revision))) or _package_only(path):
        return None
    return f"https://github.com/{repository}/tree/{quote(str(revision))}"


def package_page(source: dict[str, Any]) -> str | None:
    """PyPI's page of the release a package-only file was read from, or None for any other source."""
    pin = _PIN.match(str(source.get("package") or ""))
    if not (pin and _package_only(str(source.get("path") or ""))):
        return None
    version = pin.group(2).split("+")[0]
    return f"https://pypi.org/project/{quote(pin.group(1))}/{quote(version)}/"


def source_link(source: dict[str, Any]) -> str | None:
    """The address a reader follows: a code permalink first, then the document's URL, then a package's release page
    or the repository's tree."""
    if source.get("type") == "code":
        return permalink(source) or source.get("url") or package_page(source) or tree_link(source)
    return source.get("url") or permalink(source) or package_page(source) or tree_link(source)
