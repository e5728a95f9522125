"""Repository configuration: CI workflows, the pre-commit hook and editor schema mapping stay well-formed and complete."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from generators.kinds import FOLDER_OF_KIND

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ("ci.yml", "pr-diff.yml", "pr-diff-comment.yml", "pages.yml")


def _yaml(rel: str) -> dict:
    data = yaml.safe_load((ROOT / rel).read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{rel} is not a mapping"
    return data


def _triggers(workflow: dict) -> dict:
    # YAML 1.1 reads the bare key `on` as the boolean True
    return workflow.get("on", workflow.get(True)) or {}


@pytest.mark.parametrize("name", WORKFLOWS)
def test_workflow_parses(name: str) -> None:
    workflow = _yaml(f".github/workflows/{name}")
    assert workflow["jobs"] and _triggers(workflow)
    for job in workflow["jobs"].values():
        assert job["runs-on"] and job["steps"]


def _runs(workflow: dict) -> str:
    return "\n".join(step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"])


def test_ci_runs_check_tests_and_strict_build() -> None:
    workflow = _yaml(".github/workflows/ci.yml")
    assert set(_triggers(workflow)) == {"push", "pull_request"}
    runs = _runs(workflow)
    for command in ('pip install -e ".[test]"', "python -m generators check --format github",
                    "python -m pytest", "mkdocs build --strict"):
        assert command in runs


def test_pr_diff_posts_one_marked_comment() -> None:
    workflow = _yaml(".github/workflows/pr-diff.yml")
    assert "pull_request" in _triggers(workflow)
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0
    assert 'python -m generators diff "origin/${BASE_REF}" --format markdown > pr-diff/diff.md' in _runs(workflow)
    # the comment is posted by a second, workflow_run-triggered workflow (see test_workflows.py)
    poster = _yaml(".github/workflows/pr-diff-comment.yml")
    steps = [step for job in poster["jobs"].values() for step in job["steps"]]
    script = next(s for s in steps if s.get("uses", "").startswith("actions/github-script"))["with"]["script"]
    assert "<!-- atlas-diff -->" in script and "updateComment" in script and "createComment" in script


def test_pages_deploys_from_main() -> None:
    workflow = _yaml(".github/workflows/pages.yml")
    assert _triggers(workflow)["push"]["branches"] == ["main"]
    deploy = workflow["jobs"]["deploy"]["permissions"]
    assert deploy["pages"] == "write" and deploy["id-token"] == "write"
    uses = [step.get("uses", "") for job in workflow["jobs"].values() for step in job["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact") for u in uses)
    assert any(u.startswith("actions/deploy-pages") for u in uses)
    assert "mkdocs build --strict" in _runs(workflow)


def test_pre_commit_hook() -> None:
    config = _yaml(".pre-commit-config.yaml")
    hooks = {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}
    hook = hooks["atlas-check"]
    assert hook["entry"] == "python -m generators check"
    assert hook["language"] == "system" and hook["pass_filenames"] is False
    assert hook["files"].startswith("^(records|schema|docs|generators)/")


def test_vscode_maps_every_kind_to_its_schema() -> None:
    settings = json.loads((ROOT / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    mapping = settings["yaml.schemas"]
    expected = {f"./schema/{kind}.schema.json": f"records/{folder}/*.yaml" for kind, folder in FOLDER_OF_KIND.items()}
    assert mapping == expected
    for schema in mapping:
        assert (ROOT / schema).is_file()
    extensions = json.loads((ROOT / ".vscode" / "extensions.json").read_text(encoding="utf-8"))
    assert "redhat.vscode-yaml" in extensions["recommendations"]


def test_the_code_passes_the_configured_linter() -> None:
    import subprocess
    import sys
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "generators", "tests"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
