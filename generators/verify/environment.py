"""Cached engine environments: one CPU PyTorch base, and per engine release a venv holding that release's Python source.

Layout under the cache folder (default ~/.cache/atlas-verify, or $ATLAS_VERIFY_CACHE, or --cache):
  base-torch-<v>/      venv with the CPU build of PyTorch and the sdist tooling (shared by every release)
  vllm-<X.Y.Z>/venv    venv whose site-packages link the base (a .pth line) and hold the release's pure-Python imports
  vllm-<X.Y.Z>/src     the release's source, unpacked from its sdist; no C++/CUDA extension is built
  vllm-<X.Y.Z>/manifest.json   what was installed, how long it took, how large it is

Only pip is used, through its ordinary command line. torch is pinned by a constraint so no CUDA build is pulled.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

import json
import os
import re
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

TORCH = "torch==2.13.0"
SDIST_TOOLS = ("setuptools<81", "setuptools-scm", "setuptools-rust", "packaging", "wheel", "jinja2")
# Distributions the engine's quantization and kernel-selection modules import (found by running the import
# closure of the probe on 0.33.0); installed without their dependencies, with the release's own version bounds.
SEED = ("regex", "cachetools", "psutil", "numpy", "requests", "urllib3", "idna", "certifi", "charset-normalizer",
        "tqdm", "py-cpuinfo", "transformers", "huggingface_hub", "tokenizers", "safetensors", "protobuf",
        "pydantic", "pydantic_core", "annotated-types", "typing-inspection", "pyyaml", "filelock", "einops",
        "compressed-tensors", "cloudpickle", "msgspec", "pyzmq", "cbor2", "pybase64", "prometheus_client",
        "pillow", "sentencepiece", "packaging", "aiohttp", "aiosignal", "aiohappyeyeballs", "attrs", "frozenlist",
        "multidict", "yarl", "propcache", "openai", "anyio", "sniffio", "httpx", "httpcore", "h11", "distro",
        "jiter", "fastapi", "starlette", "partial-json-parser", "uvloop", "tiktoken", "openai-harmony",
        "llguidance", "xgrammar", "blake3", "opencv-python-headless", "ml_dtypes", "loguru", "dill", "fsspec")
# Import name -> distribution name, where they differ.
DISTRIBUTION_OF = {"PIL": "pillow", "zmq": "pyzmq", "cv2": "opencv-python-headless", "yaml": "pyyaml",
                   "cpuinfo": "py-cpuinfo", "google": "protobuf", "pythonjsonlogger": "python-json-logger",
                   "openai_harmony": "openai-harmony", "sklearn": "scikit-learn", "dateutil": "python-dateutil",
                   "jwt": "pyjwt", "multipart": "python-multipart", "email_validator": "email-validator",
                   "typing_inspection": "typing-inspection", "annotated_types": "annotated-types",
                   "partial_json_parser": "partial-json-parser", "pydantic_extra_types": "pydantic-extra-types",
                   "charset_normalizer": "charset-normalizer", "opentelemetry": "opentelemetry-api",
                   "huggingface_hub": "huggingface_hub", "compressed_tensors": "compressed-tensors",
                   "tvm_ffi": "apache-tvm-ffi"}
# Never installed into an engine environment: GPU runtimes and the optional packages the worlds simulate.
NEVER = {"torch", "triton", "humming", "humming-kernels", "flashinfer", "flashinfer-python", "flashinfer_cubin",
         "flashinfer-cubin", "conch", "aiter", "deep_gemm", "zentorch", "quark", "amd-quark", "cuda-python", "cuda-bindings", "amdsmi", "pynvml", "nvidia-ml-py", "intel_extension_for_pytorch"}


# Distribution names of the optional packages the worlds simulate, as a release's requirements files pin them.
OPTIONAL_DISTRIBUTIONS = {"humming-kernels": "humming", "conch-triton-kernels": "conch", "flashinfer-python": "flashinfer",
                          "flashinfer-cubin": "flashinfer_cubin", "amd-aiter": "aiter", "aiter": "aiter",
                          "deep-gemm": "deep_gemm", "zentorch": "zentorch", "amd-quark": "quark"}
PLATFORM_REQUIREMENTS = {"cuda": "cuda.txt", "rocm": "rocm.txt", "cpu": "cpu.txt", "xpu": "xpu.txt"}


def platform_pins(source: Path) -> dict[str, tuple[str, ...]]:
    """Platform -> the simulated optional packages the release's requirements file for that platform pins."""
    pins: dict[str, tuple[str, ...]] = {}
    for platform, name in PLATFORM_REQUIREMENTS.items():
        path = source / "requirements" / name
        lines = path.read_text().splitlines() if path.is_file() else []
        found = {OPTIONAL_DISTRIBUTIONS[_normal(m.group(1))] for line in lines
                 if (m := re.match(r"\s*([A-Za-z0-9_.\-]+)", line.split("#", 1)[0]))
                 and _normal(m.group(1)) in OPTIONAL_DISTRIBUTIONS}
        if found:
            pins[platform] = tuple(sorted(found))
    return pins


class EnvironmentError_(RuntimeError):
    """An engine environment could not be prepared; the message says which step failed."""


@dataclass(frozen=True)
class Environment:
    """A ready engine environment: its interpreter, the source folder to put on the path, and its manifest."""

    python: Path
    source: Path
    manifest: dict[str, Any]


def cache_dir(override: str | None = None) -> Path:
    return Path(override or os.environ.get("ATLAS_VERIFY_CACHE") or Path.home() / ".cache" / "atlas-verify")


def _run(args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    result = subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd)
    if result.returncode != 0:
        raise EnvironmentError_(f"{' '.join(args[:6])} ... failed:\n{result.stderr[-3000:]}")
    return result.stdout


def _site_packages(venv: Path) -> Path:
    return next((venv / "lib").glob("python3*/site-packages"))


def _pip(venv: Path, *args: str, constraint: Path | None = None, env: dict[str, str] | None = None) -> str:
    cmd = [str(venv / "bin" / "python"), "-m", "pip", *args, "--disable-pip-version-check"]
    if constraint is not None:
        cmd += ["-c", str(constraint)]
    return _run(cmd, env=env)


def ensure_base(cache: Path) -> Path:
    """The shared venv with the CPU build of PyTorch; refuses a non-CPU torch."""
    base = cache / f"base-{TORCH.replace('==', '-')}"
    marker = base / ".ready"
    if marker.exists():
        return base
    cache.mkdir(parents=True, exist_ok=True)
    _run([sys.executable, "-m", "venv", str(base)])
    constraint = cache / "constraints.txt"
    constraint.write_text(TORCH + "\n")
    _pip(base, "install", "-q", TORCH, *SDIST_TOOLS, constraint=constraint)
    version = _run([str(base / "bin" / "python"), "-c", "import torch; print(torch.__version__)"]).strip()
    if not version.endswith("+cpu"):
        raise EnvironmentError_(f"the base environment got torch {version}, not the CPU build")
    marker.write_text(version + "\n")
    return base


def _requirement_specs(source: Path) -> dict[str, str]:
    specs: dict[str, str] = {}
    for path in sorted((source / "requirements").glob("common.txt")):
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            match = re.match(r"([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*(.*)", line)
            if match and ";" not in line:
                specs[_normal(match.group(1))] = match.group(1) + match.group(3).replace(" ", "")
    return specs


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement(name: str, specs: dict[str, str]) -> str:
    return specs.get(_normal(name), name)


def _download_source(base: Path, release: Path, engine: str, version: str) -> Path:
    source = release / "src"
    if (source / engine).is_dir():
        return source
    downloads = release / "sdist"
    env = dict(os.environ, VLLM_TARGET_DEVICE="empty", VLLM_VERSION_OVERRIDE=version)
    _pip(base, "download", "-q", "--no-deps", "--no-binary", ":all:", "--no-build-isolation",
         f"{engine}=={version}", "-d", str(downloads), env=env)
    archive = next(downloads.glob(f"{engine}-{version}.tar.gz"))
    top = f"{engine}-{version}/"
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers()
                   if m.name.startswith(top + engine + "/") or m.name.startswith(top + "requirements/")]
        for member in members:
            member.name = member.name[len(top):]
        tar.extractall(source, members=members, filter="data")
    archive.unlink()
    return source


def _missing_modules(python: Path, source: Path, probe: Path) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(source))
    out = subprocess.run([str(python), str(probe), "--imports"], capture_output=True, text=True, env=env)
    return sorted(set(re.findall(r"^missing: (\S+)$", out.stdout, re.M)))


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


_CONFLICT = re.compile(r"^(\S+) \S+ has requirement (([A-Za-z0-9_.\-]+)[^,]*(?:,[^,]+)*?), but you have \S+ \S+\.$", re.M)


def repair_versions(venv: Path, installed: list[str], log: Callable[[str], None] = print) -> list[str]:
    """Reinstall, within the bounds an installed distribution states, any of our distributions pip check finds
    outside them (installing without dependencies can pick a version another one rejects); returns what it fixed."""
    fixed: list[str] = []
    ours = {_normal(re.split(r"[<>=!~;\[ ]", name, maxsplit=1)[0]) for name in installed}
    for _ in range(5):
        result = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "check", "--disable-pip-version-check"],
                                capture_output=True, text=True)
        wanted = [m.group(2).replace(" ", "") for m in _CONFLICT.finditer(result.stdout)
                  if _normal(m.group(3)) in ours and _normal(m.group(3)) not in {_normal(n) for n in NEVER}]
        wanted = [w for w in wanted if w not in fixed]
        if not wanted:
            break
        log(f"reinstalling within stated bounds: {', '.join(wanted)}")
        _pip(venv, "install", "-q", "--no-deps", *wanted)
        fixed += wanted
    return fixed


def _install_missing(python: Path, source: Path, probe: Path, specs: dict[str, str], installed: list[str],
                     constraint: Path, log: Callable[[str], None]) -> list[str]:
    """Install, pass by pass, each module whose absence stops the engine's import; returns what was installed."""
    added: list[str] = []
    for _ in range(40):  # each pass finds the next module whose absence stops the import
        missing = [m for m in _missing_modules(python, source, probe)
                   if DISTRIBUTION_OF.get(m, m) not in NEVER
                   and _requirement(DISTRIBUTION_OF.get(m, m), specs) not in installed + added]
        if not missing:
            break
        wanted = [_requirement(DISTRIBUTION_OF.get(m, m), specs) for m in missing]
        log(f"installing imported modules: {', '.join(wanted)}")
        _pip(python.parent.parent, "install", "-q", "--no-deps", *wanted, constraint=constraint)
        added += wanted
    return added


def ensure_release(engine: str, version: str, cache: Path, probe: Path,
                   log: Callable[[str], None] = print) -> Environment:
    """Prepare (or reuse) the environment for one engine release; the manifest records what it took."""
    release = cache / f"{engine}-{version}"
    manifest_path = release / "manifest.json"
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        fixed = repair_versions(release / "venv", manifest.get("installed", []), log)
        if fixed:
            manifest["repaired"] = sorted(set(manifest.get("repaired", [])) | set(fixed))
        if manifest.get("repaired") and not manifest.get("import_checked_after_repair"):
            added = _install_missing(release / "venv" / "bin" / "python", release / "src", probe,
                                     _requirement_specs(release / "src"), manifest.get("installed", []),
                                     cache / "constraints.txt", log)
            manifest.update(installed=sorted(set(manifest.get("installed", []) + added), key=str.lower),
                            import_checked_after_repair=True)
        if fixed or manifest.get("import_checked_after_repair"):
            manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
        return Environment(release / "venv" / "bin" / "python", release / "src", manifest)
    started = time.monotonic()
    base = ensure_base(cache)
    release.mkdir(parents=True, exist_ok=True)
    log(f"unpacking {engine}=={version} from its sdist")
    source = _download_source(base, release, engine, version)
    venv = release / "venv"
    if not (venv / "bin" / "python").exists():
        _run([sys.executable, "-m", "venv", str(venv)])
    (_site_packages(venv) / "atlas-verify-base.pth").write_text(str(_site_packages(base)) + "\n")
    specs = _requirement_specs(source)
    constraint = cache / "constraints.txt"
    installed = [_requirement(n, specs) for n in SEED]
    log(f"installing {len(installed)} pure-Python distributions (no dependencies)")
    _pip(venv, "install", "-q", "--no-deps", *installed, constraint=constraint)
    python = venv / "bin" / "python"
    installed += _install_missing(python, source, probe, specs, installed, constraint, log)
    repaired = repair_versions(venv, installed, log)
    if repaired:  # a repaired version can let the import go further and meet another missing module
        installed += _install_missing(python, source, probe, specs, installed, constraint, log)
    manifest = {"engine": engine, "version": version, "torch": (base / ".ready").read_text().strip(),
                "repaired": repaired,
                "installed": sorted(set(installed), key=str.lower),
                "setup_seconds": round(time.monotonic() - started, 1),
                "release_bytes": _size(release), "base_bytes": _size(base)}
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    return Environment(python, source, manifest)
