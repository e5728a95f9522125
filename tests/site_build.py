"""The real site, built once per test run in the background and shared by every pytest-xdist worker.

`python -m generators site` (mkdocs build --strict) of the repository takes a large part of the suite's time. The
first process of the run to claim the build folder starts it as soon as its first test begins; the tests that read
the site run last (conftest.py), so the build overlaps the other tests, and every worker waits for the same build
instead of one worker carrying the build and every site and browser test. The build runs through this file as a
script (`python tests/site_build.py FOLDER`), which records the exit code when the build ends, so a waiting worker
never depends on the process that started it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

if __package__:  # (run as a script, the build needs none of it)
    from .processes import keep, kept_environment, release

ROOT = Path(__file__).resolve().parent.parent
WAIT_SECONDS = 900.0  # a build on a loaded machine takes a minute or two; past this something is stuck


class SiteBuild:
    """The build in FOLDER: `site/` (the built site), `build.log` (stdout then stderr), `stderr`, `returncode`, and
    `cache/` (its on-disk cache: the generated Markdown the build kept, which tests may read back)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.site = folder / "site"
        self.cache = folder / "cache"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the build unless another process of the run has (creating the folder is the claim)."""
        try:
            self.folder.mkdir(parents=True)
        except FileExistsError:
            return
        environment = kept_environment()
        self.process = subprocess.Popen([sys.executable, __file__, str(self.folder)], cwd=ROOT, env=environment,
                                        start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        keep(self.process, environment)

    def wait(self) -> tuple[int, str]:
        """The build's exit code and its stderr, once it has ended (starting it if no one has)."""
        self.start()
        done = self.folder / "returncode"
        deadline = time.monotonic() + WAIT_SECONDS
        while not done.exists():
            assert time.monotonic() < deadline, f"the site build in {self.folder} did not end in {WAIT_SECONDS:.0f} s"
            time.sleep(0.05)
        return int(done.read_text(encoding="utf-8")), (self.folder / "stderr").read_text(encoding="utf-8")

    def reap(self) -> None:
        """The process that started the build waits for it (a worker still running tests may be waiting too), then
        ends what is left of its session; interrupted while waiting, it ends the build at once (tests/processes.py)."""
        if self.process is not None:
            try:
                self.process.wait()
            finally:
                release(self.process)


def _build(folder: Path) -> None:
    """Run the project's own site build into FOLDER/site with FOLDER/cache as its cache; record what it printed and,
    last (written whole, then renamed), its exit code, also when this process is interrupted."""
    code, stdout, stderr = 1, "", ""
    try:
        env = {**os.environ, "ATLAS_CACHE_DIR": str(folder / "cache")}
        result = subprocess.run([sys.executable, "-m", "generators", "site", "-d", str(folder / "site")],
                                cwd=ROOT, env=env, capture_output=True, text=True)
        code, stdout, stderr = result.returncode, result.stdout, result.stderr
    except BaseException as error:  # noqa: B036 - whatever stops the build, a waiting worker must learn it
        stderr = f"the site build was stopped: {error!r}"
        raise
    finally:
        (folder / "build.log").write_text(stdout + stderr, encoding="utf-8")
        (folder / "stderr").write_text(stderr, encoding="utf-8")
        (folder / "returncode.part").write_text(str(code), encoding="utf-8")
        os.replace(folder / "returncode.part", folder / "returncode")


if __name__ == "__main__":
    _build(Path(sys.argv[1]))
