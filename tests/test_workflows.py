"""GitHub workflows: audit-clean (zizmor), schema-valid (check-jsonschema), pinned, least-privileged, and
the pull-request comment posted by a job that never runs the pull request's code, from untrusted text."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
GITHUB = ROOT / ".github"
WORKFLOW_FILES = sorted((GITHUB / "workflows").glob("*.y*ml"))
PINNED = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$")
USES_LINE = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<ref>\S+)(?:\s+#\s*(?P<comment>.*))?$")
VERSION_COMMENT = re.compile(r"^v\d+\.\d+\.\d+\b")
MARKER = "<!-- atlas-diff -->"
# The only write rights any job holds: (workflow file, job id) -> its permissions, exactly.
PRIVILEGED_JOBS = {
    ("pr-diff-comment.yml", "comment"): {"actions": "read", "pull-requests": "write"},
    ("pages.yml", "deploy"): {"pages": "write", "id-token": "write"},
    ("verify.yml", "propose"): {"contents": "write", "pull-requests": "write"},
}
# zizmor findings silenced in place, each with its reason in the same comment: (file, audit)
ALLOWED_IGNORES = {("pr-diff-comment.yml", "dangerous-triggers")}


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path.name} is not a mapping"
    return data


def _triggers(workflow: dict[str, Any]) -> dict[str, Any]:
    # YAML 1.1 reads the bare key `on` as the boolean True
    triggers = workflow.get("on", workflow.get(True))
    return triggers if isinstance(triggers, dict) else {name: None for name in ([triggers] if isinstance(triggers, str) else triggers)}


def _steps(workflow: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for job_id, job in workflow["jobs"].items():
        for step in job.get("steps", []):
            yield job_id, step


WORKFLOWS = {path.name: _load(path) for path in WORKFLOW_FILES}


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]' installs it)")
    return path


def test_the_expected_workflows_exist() -> None:
    assert {"ci.yml", "pages.yml", "pr-diff.yml", "pr-diff-comment.yml"} <= set(WORKFLOWS)


def test_zizmor_offline_reports_no_findings() -> None:
    result = _run(_tool("zizmor"), "--offline", "--no-progress", ".github/")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings" in result.stdout + result.stderr


def test_zizmor_ignores_are_the_reviewed_ones() -> None:
    ignores = set()
    for path in WORKFLOW_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            for match in re.finditer(r"zizmor:\s*ignore\[([^\]]+)\](.*)", line):
                assert match.group(2).strip(), f"{path.name}: an ignore without its reason: {line.strip()}"
                ignores |= {(path.name, audit.strip()) for audit in match.group(1).split(",")}
    assert ignores <= ALLOWED_IGNORES
    assert not (GITHUB / "zizmor.yml").exists() and not (ROOT / "zizmor.yml").exists()


def _check_jsonschema(*args: str) -> tuple[int, str]:
    """check-jsonschema's own command line, run in this process (its built-in schemas ship in the package)."""
    cli = pytest.importorskip("check_jsonschema", reason="check-jsonschema is not installed (pip install -e '.[test]' installs it)")
    testing = pytest.importorskip("click.testing")
    result = testing.CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.output


def test_workflows_and_dependabot_match_their_schemas_offline(tmp_path: Path) -> None:
    code, output = _check_jsonschema("--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOW_FILES))
    assert code == 0, output
    code, output = _check_jsonschema("--builtin-schema", "vendor.dependabot", str(GITHUB / "dependabot.yml"))
    assert code == 0, output
    # the validator does reject a malformed workflow (a misspelt key), so the passes above mean something
    broken = tmp_path / "broken.yml"
    broken.write_text((GITHUB / "workflows" / "ci.yml").read_text(encoding="utf-8").replace("runs-on:", "run-on:"))
    code, output = _check_jsonschema("--builtin-schema", "vendor.github-workflows", str(broken))
    assert code != 0 and "broken.yml" in output


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_every_action_is_pinned_to_a_commit_with_its_version(name: str) -> None:
    text = (GITHUB / "workflows" / name).read_text(encoding="utf-8")
    lines = [m for line in text.splitlines() if (m := USES_LINE.match(line))]
    uses = [step["uses"] for _, step in _steps(WORKFLOWS[name]) if "uses" in step]
    assert [m.group("ref") for m in lines] == uses  # every `uses:` is on a line of its own
    for match in lines:
        assert PINNED.match(match.group("ref")), f"{name}: {match.group('ref')} is not pinned to a full commit SHA"
        assert VERSION_COMMENT.match(match.group("comment") or ""), f"{name}: {match.group('ref')} has no '# vX.Y.Z' comment"


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_no_checkout_keeps_credentials(name: str) -> None:
    for job_id, step in _steps(WORKFLOWS[name]):
        if step.get("uses", "").startswith("actions/checkout@"):
            assert step.get("with", {}).get("persist-credentials") is False, f"{name}: {job_id}: checkout keeps its token"


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_no_expression_is_expanded_into_code(name: str) -> None:
    for job_id, step in _steps(WORKFLOWS[name]):
        for code in (step.get("run"), step.get("with", {}).get("script")):
            assert code is None or "${{" not in code, f"{name}: {job_id}: pass {step.get('name', step.get('uses'))}'s data via env:"


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_permissions_are_declared_per_job_and_minimal(name: str) -> None:
    workflow = WORKFLOWS[name]
    assert workflow.get("permissions") == {}, f"{name}: top-level permissions must be {{}}"
    for job_id, job in workflow["jobs"].items():
        permissions = job.get("permissions")
        assert isinstance(permissions, dict), f"{name}: {job_id} declares no permissions of its own"
        expected = PRIVILEGED_JOBS.get((name, job_id))
        if expected is not None:
            assert permissions == expected
        else:
            assert set(permissions.values()) <= {"read", "none"}, f"{name}: {job_id} may write: {permissions}"


def test_pull_request_workflows_hold_no_write_right_and_no_secret() -> None:
    for name, workflow in WORKFLOWS.items():
        if "pull_request" in _triggers(workflow):
            text = (GITHUB / "workflows" / name).read_text(encoding="utf-8")
            assert "secrets." not in text, name
            assert all("write" not in job["permissions"].values() for job in workflow["jobs"].values()), name
        assert "pull_request_target" not in _triggers(workflow), name


def test_the_diff_is_computed_without_privileges_and_uploaded() -> None:
    workflow = WORKFLOWS["pr-diff.yml"]
    assert set(_triggers(workflow)) == {"pull_request"}
    steps = [step for _, step in _steps(workflow)]
    diff = next(step for step in steps if "generators diff" in step.get("run", ""))
    assert 'python -m generators diff "origin/${BASE_REF}" --format markdown > pr-diff/diff.md' in diff["run"]
    assert diff["env"]["BASE_REF"] == "${{ github.base_ref }}"
    upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["name"] == "pr-diff" and upload["with"]["path"] == "pr-diff/"


def test_the_comment_job_runs_no_code_from_the_pull_request() -> None:
    workflow = WORKFLOWS["pr-diff-comment.yml"]
    trigger = _triggers(workflow)["workflow_run"]
    assert set(_triggers(workflow)) == {"workflow_run"} and trigger["types"] == ["completed"]
    assert trigger["workflows"] == [WORKFLOWS["pr-diff.yml"]["name"]]  # a rename would silently stop the comments
    for job in workflow["jobs"].values():
        assert "conclusion == 'success'" in job["if"] and "event == 'pull_request'" in job["if"]
        for step in job["steps"]:
            assert "run" not in step, "the privileged job runs no shell"
            assert not step.get("uses", "").startswith("actions/checkout@"), "the privileged job checks nothing out"
    download = next(s for _, s in _steps(workflow) if s.get("uses", "").startswith("actions/download-artifact@"))
    assert download["with"]["run-id"] == "${{ github.event.workflow_run.id }}"
    assert download["with"]["name"] == "pr-diff" and download["with"]["path"].startswith("${{ runner.temp }}")


def test_dependabot_keeps_the_actions_current() -> None:
    config = _load(GITHUB / "dependabot.yml")
    assert any(update["package-ecosystem"] == "github-actions" and update["directory"] == "/" for update in config["updates"])


def test_pre_commit_hooks_are_pinned_and_check_the_whole_tree() -> None:
    config = _load(ROOT / ".pre-commit-config.yaml")
    hooks = {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}
    assert hooks["atlas-check"]["entry"] == "python -m generators check"
    assert hooks["atlas-check"]["pass_filenames"] is False
    assert {"check-github-workflows", "check-dependabot", "zizmor"} <= set(hooks)
    for repo in config["repos"]:
        if repo["repo"] != "local":
            assert re.fullmatch(r"[0-9a-f]{40}", repo["rev"]), f"{repo['repo']} is not pinned to a commit"


# --- the posting script, run under node with a fake GitHub API ----------------------------------------

HARNESS = r"""
const fs = require('fs');
const [scriptFile, scenarioFile] = process.argv.slice(2);
const s = JSON.parse(fs.readFileSync(scenarioFile, 'utf8'));
const calls = [];
const record = (name) => async (params) => { calls.push([name, params]); return { data: {} }; };
const github = {
  paginate: async (method, params) => (await method(params)).data,
  rest: {
    pulls: {
      list: async (params) => { calls.push(['pulls.list', params]); return { data: s.open }; },
      get: async (params) => ({ data: s.pulls[String(params.pull_number)] }),
    },
    issues: {
      listComments: async () => ({ data: s.comments }),
      createComment: record('createComment'),
      updateComment: record('updateComment'),
    },
  },
};
const core = { warning: m => calls.push(['warning', m]), notice: m => calls.push(['notice', m]),
               setFailed: m => calls.push(['setFailed', m]) };
const context = { repo: { owner: 'atlas', repo: 'atlas' }, payload: { workflow_run: s.run } };
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
new AsyncFunction('github', 'context', 'core', 'require', fs.readFileSync(scriptFile, 'utf8'))(github, context, core, require)
  .then(() => console.log(JSON.stringify(calls)), (e) => { console.error(e); process.exit(1); });
"""

HEAD = "a" * 40


def _pull(number: int, sha: str = HEAD) -> dict[str, Any]:
    return {"number": number, "state": "open", "head": {"sha": sha}, "base": {"ref": "main"}}


def _fork_run() -> dict[str, Any]:
    return {"head_sha": HEAD, "head_branch": "fix", "pull_requests": [],
            "head_repository": {"owner": {"login": "contributor"}}}


def _post(tmp_path: Path, report: str, scenario: dict[str, Any], claimed: str = "7") -> list[list[Any]]:
    node = _tool("node")
    steps = [s for _, s in _steps(WORKFLOWS["pr-diff-comment.yml"])]
    script = next(s for s in steps if s.get("uses", "").startswith("actions/github-script@"))["with"]["script"]
    artifact = tmp_path / "artifact"
    artifact.mkdir()
    (artifact / "diff.md").write_text(report, encoding="utf-8")
    (artifact / "pr-number").write_text(claimed + "\n", encoding="utf-8")
    (tmp_path / "script.js").write_text(script, encoding="utf-8")
    (tmp_path / "harness.js").write_text(HARNESS, encoding="utf-8")
    (tmp_path / "scenario.json").write_text(json.dumps(scenario), encoding="utf-8")
    result = subprocess.run([node, str(tmp_path / "harness.js"), str(tmp_path / "script.js"), str(tmp_path / "scenario.json")],
                            capture_output=True, text=True, timeout=30, env={"REPORT_DIR": str(artifact), "PATH": ""})
    assert result.returncode == 0, result.stderr
    calls: list[list[Any]] = json.loads(result.stdout)
    return calls


def _posted(calls: list[list[Any]]) -> list[list[Any]]:
    return [call for call in calls if call[0] in ("createComment", "updateComment")]


def test_fork_report_is_posted_to_the_pull_request_found_from_the_event(tmp_path: Path) -> None:
    report = ("**Atlas diff**: 1 page changes\n\n<details><summary><code>formats/int8.md</code> changed</summary>\n\n"
              "```diff\n+<b>kept in code</b> @inside\n```\n</details>\n\n"
              "<img src=x onerror=alert(1)> ping @maintainers and @org/team\n")
    scenario = {"run": _fork_run(), "open": [_pull(7)], "pulls": {"7": _pull(7), "3": _pull(3)}, "comments": []}
    calls = _post(tmp_path, report, scenario, claimed="3")  # the artifact lies about the number
    assert ["pulls.list", {"owner": "atlas", "repo": "atlas", "state": "open", "head": "contributor:fix", "per_page": 100}] in calls
    [(method, params)] = _posted(calls)
    assert method == "createComment" and params["issue_number"] == 7
    body = params["body"]
    assert body.startswith(MARKER + "\n")
    assert "<details><summary><code>formats/int8.md</code> changed</summary>" in body and "</details>" in body
    assert "+<b>kept in code</b>" in body  # inside a code fence HTML is shown, not rendered
    assert "&lt;img src=x" in body and "<img" not in body
    assert "@maintainers" not in body and "@\u200dmaintainers" in body and "@\u200dorg/team" in body
    assert any(call[0] == "warning" for call in calls)


def test_an_oversized_report_is_cut_at_whole_lines_with_its_fence_closed(tmp_path: Path) -> None:
    # a record's text in a code span of an earlier section names the tags: only diff's own, at a line's start, count
    report = ("### Records\n- `x` changed\n  - `notes`: `\"a\"` → `\"</details>\"`\n\n"
              "### Pages\n<details><summary><code>a.md</code> changed</summary>\n\n```diff\n" + "+ a line of text\n" * 8000)
    run = {**_fork_run(), "pull_requests": [{"number": 7}], "html_url": "https://github.com/atlas/atlas/actions/runs/42"}
    scenario = {"run": run, "open": [], "pulls": {"7": _pull(7)}, "comments": []}
    [(_, params)] = _posted(_post(tmp_path, report, scenario))
    body = params["body"]
    assert len(body) < 60000 + 500
    assert body.rstrip().endswith("for all of it.")
    assert "```\n</details>\n\n... report cut at 60000 characters, " in body
    shown = body.count("+ a line of text")
    assert f", {8000 + 1 - shown} more line(s) not shown" in body  # the lines cut, and the empty last one
    assert ("run `python -m generators diff origin/main` locally or download the `pr-diff` artifact of "
            "https://github.com/atlas/atlas/actions/runs/42 for all of it.") in body


def test_a_cut_never_leaves_a_cells_name_without_its_lines(tmp_path: Path) -> None:
    """A long report cut where a cell's block is half written: the block goes whole (its lines counted as not shown),
    so every cell named in the comment has all its lines under it; a section's heading is not left over nothing."""
    from generators.diff import CellContentChange, DiffReport, FieldChange
    contents = tuple(CellContentChange("sch", f"target-{n}", (FieldChange("reasons[0]", f"old reason {n}", f"new {n}"),
                                                              FieldChange("gate", "g", f"gate {n}")))
                     for n in range(1500))
    report = DiffReport("main", "head", contents=contents).to_markdown()
    lines = report.split("\n")
    used, n = 0, 0
    while used + len(lines[n]) + 1 <= 60000:  # where a cut at whole lines falls
        used += len(lines[n]) + 1
        n += 1
    assert lines[n].startswith("  - "), "the test needs a cut inside a cell's block"
    run = {**_fork_run(), "pull_requests": [{"number": 7}], "html_url": "https://github.com/atlas/atlas/actions/runs/42"}
    [(_, params)] = _posted(_post(tmp_path, report, {"run": run, "open": [], "pulls": {"7": _pull(7)}, "comments": []}))
    shown = params["body"].removeprefix(MARKER + "\n").split("\n\n... report cut at ")[0].split("\n")
    assert shown == lines[:len(shown)] and len(shown) < n  # whole lines, fewer than fit
    names = [i for i, line in enumerate(shown) if line.startswith("- `sch` on ")]
    assert names and all(shown[i + 1:i + 3] == lines[i + 1:i + 3] and i + 2 < len(shown) for i in names)
    assert shown[-1].startswith("  - `gate`") and lines[len(shown)].startswith("- `sch` on ")  # ends with a whole block
    assert f", {len(lines) - len(shown)} more line(s) not shown" in params["body"]
    # a cut just after a heading leaves no heading over nothing
    short = "**Atlas diff**: x\n\n### Records\n- `a` changed\n\n### What cells say\n- `s` on `t`\n  - " + "y" * 60000
    (tmp_path / "short").mkdir()
    [(_, params)] = _posted(_post(tmp_path / "short", short, {"run": run, "open": [], "pulls": {"7": _pull(7)},
                                                              "comments": []}))
    assert params["body"].split("\n\n... report cut")[0].endswith("- `a` changed")
    assert ", 4 more line(s) not shown" in params["body"]  # the block's two lines, the heading and the blank above


def test_only_the_bots_marked_comment_is_updated(tmp_path: Path) -> None:
    comments = [{"id": 1, "user": {"login": "someone"}, "body": MARKER + " pretend"},
                {"id": 2, "user": {"login": "github-actions[bot]"}, "body": MARKER + "\nold report"}]
    scenario = {"run": {**_fork_run(), "pull_requests": [{"number": 7}]}, "open": [], "pulls": {"7": _pull(7)},
                "comments": comments}
    [(method, params)] = _posted(_post(tmp_path, "1 record changed\n", scenario))
    assert method == "updateComment" and params["comment_id"] == 2
    assert params["body"] == f"{MARKER}\n1 record changed\n"


def test_nothing_is_posted_for_a_commit_that_is_no_longer_the_head(tmp_path: Path) -> None:
    scenario = {"run": _fork_run(), "open": [_pull(7, sha="b" * 40)], "pulls": {"7": _pull(7, sha="b" * 40)}, "comments": []}
    calls = _post(tmp_path, "1 record changed\n", scenario)
    assert _posted(calls) == [] and any(call[0] == "notice" for call in calls)


def test_the_published_site_knows_its_address() -> None:
    """The Pages build passes the address configure-pages reads to the build, so the site has canonical links and a
    sitemap; reading it needs `pages: read` only, and the action must not try to enable Pages."""
    from generators.site_address import ENVIRONMENT_VARIABLE, site_address

    build = WORKFLOWS["pages.yml"]["jobs"]["build"]
    assert build["permissions"] == {"contents": "read", "pages": "read"}
    configure = next(step for step in build["steps"] if step.get("uses", "").startswith("actions/configure-pages@"))
    assert str(configure["with"]["enablement"]).lower() == "false"
    site = next(step for step in build["steps"] if "mkdocs build" in step.get("run", ""))
    assert site["env"][ENVIRONMENT_VARIABLE] == "${{ steps." + configure["id"] + ".outputs.base_url }}"
    steps = build["steps"]
    assert steps.index(configure) < steps.index(site)
    # base_url has no trailing slash ("https://octocat.github.io/my-repo"); the address MkDocs gets has one
    assert site_address(None, {ENVIRONMENT_VARIABLE: "https://octocat.github.io/my-repo"}) == (
        "https://octocat.github.io/my-repo/", "")
