"""The documentation is part of the interface: every rule the code cites resolves to docs/rules.md, the
notation's legend explains every card and action code, the generated pages cover the code's tables, and
the site builds with ``properdocs build --strict`` (a broken link or a missing page fails)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from uno_env import PRESETS, docs
from uno_env.core.actions import ACTION_TYPES
from uno_env.core.cards import COLOR_LETTERS, DECKS, make_deck

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
NOTATION = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
CITING = ("uno_env", "agents", "training", "research", "tests", "benchmarks")  # folders whose citations must resolve
TEXT = {".py", ".json", ".md", ".ipynb", ".toml", ".yml", ".yaml", ".cfg", ".txt"}
SKIP_DIRS = {".git", "__pycache__", "site", ".pytest_cache", ".ruff_cache", ".hypothesis", "runs"}

SECTION = re.compile(r"§\s?(\d+(?:\.\d+)?)")
EDGE_CASE = re.compile(r"\bE(\d{1,3})\b")
LINT_CODES = re.compile(r"noqa(?::\s*[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)?|\b(?:ignore|select)\s*=\s*\[[^\]]*\]")


def anchors(markdown: str) -> set[str]:
    """Explicit anchors of a page: ``{ #id }`` after a heading and ``id="..."`` of inline HTML."""
    return set(re.findall(r"\{\s*#([\w-]+)\s*\}", markdown)) | set(re.findall(r'\bid="([\w-]+)"', markdown))


def text_files(folders=None):
    for top in [ROOT / f for f in folders] if folders else [ROOT]:
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info")]
            for name in filenames:
                path = Path(dirpath) / name
                if path.suffix in TEXT:
                    yield path


def citations() -> list[tuple[str, str]]:
    """(file:line, anchor) of every section and edge-case citation in the code, tests and benchmarks."""
    found = []
    for path in text_files(CITING):
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            line = LINT_CODES.sub("", line)
            where = f"{path.relative_to(ROOT)}:{n}"
            found += [(where, "s" + m.group(1).replace(".", "-")) for m in SECTION.finditer(line)]
            found += [(where, "e" + m.group(1)) for m in EDGE_CASE.finditer(line)]
    return found


def test_rules_page_has_an_anchor_for_every_section_edge_case_and_decision():
    ids = anchors(RULES)
    assert {"s1", "s1-6", "s1-10", "s9", "s10", "s12", "s12-11", "s12-15", "e1", "e10", "e34", "d1"} <= ids
    numbered = re.findall(r"^#{2,3} \d+.*$", RULES, flags=re.M)
    headings = re.findall(r"^#{2,3} (\d+)(?:\.(\d+))?\.? .*\{ #(s[\d-]+) \}$", RULES, flags=re.M)
    assert len(headings) == len(numbered) >= 39  # every numbered section, each anchored by its number
    assert all(a == "s" + x + (f"-{y}" if y else "") for x, y, a in headings)
    edge_rows = re.findall(r'^\| <span id="e(\d+)">E(\d+)</span> \|', RULES, flags=re.M)
    assert [int(a) for a, _ in edge_rows] == list(range(1, len(edge_rows) + 1)) and len(edge_rows) >= 34


def test_every_rule_citation_in_the_code_resolves_to_an_anchor_of_the_rules_page():
    found = citations()
    ids = anchors(RULES)
    assert len(found) > 20  # the citations are there to check
    missing = [f"{where}: {anchor}" for where, anchor in found if anchor not in ids]
    assert not missing, "citations with no anchor in docs/rules.md:\n" + "\n".join(missing)


def test_the_code_cites_the_rules_page_not_the_specification_files():
    """The convention: ``rules §1.6``, ``E10``, ``docs/notation.md``, never the specification's file names."""
    old = re.compile(r"\b(RULES|SCENARIOS)\.md\b")
    stale = [f"{p.relative_to(ROOT)}:{n}" for p in text_files(CITING)
             for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if old.search(line)]
    assert not stale, "cite rules §x.y / docs/notation.md instead:\n" + "\n".join(stale)


def test_nothing_in_the_repository_points_outside_it():
    """A clone has no shared folder beside it: no file may read or mention one."""
    bad = re.compile(r"\.\./" + "shared|shared " + "rules folder|[\"']" + "shared[\"'/]")  # also a path join
    hits = [f"{p.relative_to(ROOT)}:{n}" for p in text_files()
            for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if bad.search(line)]
    assert not hits, "\n".join(hits)


# Words of the project's own history in pages written for newcomers: each pattern with what it catches.  The
# history (issue numbers, who measured what when, what was left of a plan) belongs in results/README.md.
INTERNAL = {
    r"\b(?:issue|PR|pull request)s?\s*#?\d+": "an issue or pull-request number",
    r"\b(?:a|the|this|that|another|an earlier|a later|the last|the next|one) (?:session|helper|lead)\b"
    r"(?! to its recipe)(?:'s)? (?:on|measured|ran|found|tried|of the project)\b": "a working session of the project",
    r"\b(?:left (?:of|in) (?:its|the|their) budget|budget (?:left|remaining)|what is left of)\b":
        "a plan's budget, and what is left of it",
    r"\b\d+(?:\.\d+)?M of (?:its|the|their) \d+(?:\.\d+)?M\b": "a share of a plan's samples",
    r"\b(?:two|both|three) shipped agents\b": "a count of shipped agents that goes stale (say which)",
    r"\bwt-[a-z]+\b|/work/": "a path of the developers' machines",
}


def user_docs() -> dict[str, str]:
    """The pages a newcomer reads: the README, docs/*.md and the generated leaderboard page."""
    pages = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
             for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]}
    from training import leaderboard
    pages["docs/leaderboard.md (training/leaderboard.py page())"] = leaderboard.page()
    return pages


def internal_words(text: str) -> list[tuple[int, str, str]]:
    """(line, what it is, the words) of each internal reference in ``text``, a phrase broken over lines too."""
    flat = re.sub(r"\s", " ", text)  # the same length: an offset is still on its line
    return [(text.count("\n", 0, m.start()) + 1, why, m.group(0)) for pattern, why in INTERNAL.items()
            for m in re.finditer(pattern.replace(" ", r"\s+"), flat, re.IGNORECASE)]


def test_user_docs_name_no_issue_session_or_budget_of_the_projects_own_history():
    hits = [f"{name}:{n}: {why}: {words!r}" for name, text in user_docs().items()
            for n, why, words in internal_words(text)]
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize("line", [
    "since issue 47 it does", "Before issue 47 (`a911c16`)", "A later session on the same kind of VM measured 7.3",
    "the 20M samples left in the budget would add", "is what is left of its budget", "It trained for 10M of its 30M "
    "samples", "Both shipped\n  agents play this way", "what the two shipped agents are", "see #12 (issue #12)",
])
def test_the_internal_words_check_catches_what_it_names(line):
    assert internal_words(line)


@pytest.mark.parametrize("line", [
    "`sessions.json` records each session's steps", "add a later session to its recipe (`training/recipe.py`)",
    "its training budget in samples beside it", "the seat left of the dealer", "a longer budget may find more",
])
def test_the_internal_words_check_lets_the_projects_own_terms_through(line):
    assert not internal_words(line)


def test_the_legend_explains_every_colour_symbol_and_action_of_every_deck():
    legend = NOTATION.split("{ #legend }", 1)[1].split("\n## ", 1)[0]
    codes = set(re.findall(r"`([^`]+)`", legend))
    for letter in COLOR_LETTERS:
        assert any(letter in c.split() for c in codes), letter
    for deck in DECKS:
        for face in make_deck(deck).faces:
            symbol = face.name if face.is_wild else face.name[1:]
            if symbol.isdigit():
                assert "`0`-`9`" in legend
            else:
                assert symbol in codes, f"{deck}: the symbol of {face.name} is not in the legend"
    for kind in ACTION_TYPES:
        assert any(c == kind or c.startswith(kind + " ") for c in codes), kind
    for example in ("RS", "RR", "play GX @1", "play WX", "catch @3"):
        assert example in codes, example


def test_an_environment_page_per_preset_with_every_observation_layout_and_option():
    pages = docs.pages()
    assert {f"environments/{p}.md" for p in PRESETS} <= pages.keys()
    for preset in PRESETS:
        page = pages[f"environments/{preset}.md"]
        for heading in ("## Usage", "## Agents", "## Action space", "## Rewards", "## Arguments",
                        "## Version history"):
            assert heading in page, (preset, heading)
        for layout, slots in docs.layouts().items():
            for name, _size, _meaning in slots:
                assert f"| `{name}` |" in page, (preset, layout, name)
    options = pages["options.md"]
    from uno_env.core.config import OPTIONS
    assert all(f"| `{key}` |" in options for key in OPTIONS)


def test_the_environment_page_example_runs():
    code = re.search(r"```python\n(.*?)```", docs.environment_page("house_cn"), re.S).group(1)
    exec(compile(code, "environments/house_cn.md", "exec"), {"__name__": "docs_example"})


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as ``properdocs build --strict`` writes it (the command in the README), and its output."""
    pytest.importorskip("properdocs", reason="properdocs is not installed (pip install -e '.[dev]' installs it)")
    for module in ("material", "mkdocstrings", "mkdocs_gen_files"):
        pytest.importorskip(module, reason=f"{module} is not installed (pip install -e '.[dev]' installs it)")
    out = tmp_path_factory.mktemp("site")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_MKDOCS_2_WARNING", "DISABLE_MKDOCS_2_WARNING")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "properdocs", "build", "--strict", "-f", "mkdocs.yml",
                           "--site-dir", str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out, proc.stdout + proc.stderr


def test_the_site_builds_strict_with_every_page(site):
    out, _ = site
    for page in ("index.html", "rules/index.html", "notation/index.html", "options/index.html",
                 "environments/flip_jp/index.html", "benchmarks/core_decisions.png"):
        assert (out / page).exists(), page


def test_the_build_prints_no_third_party_notice(site):
    """The theme's end-of-life notice and a plugin's "switch to ProperDocs" notice read as errors; neither
    is printed when the site is built with ProperDocs (pyproject.toml says why it builds the site)."""
    _, log = site
    for notice in ("end of life", "ProperDocs", "WARNING", "\x1b["):
        assert notice not in log, f"the build printed {notice!r}:\n{log[:2000]}"


def test_every_environment_page_has_a_heading_for_each_observation_layout(site):
    """Read from the built HTML: a heading written right under a table's last row renders as one more row
    of the table (no heading, no contents entry), which neither --strict nor the markdown shows."""
    out, _ = site
    for preset in PRESETS:
        html = (out / "environments" / preset / "index.html").read_text(encoding="utf-8")
        h2 = {m.group(1): re.sub(r"<[^>]+>|&para;", "", m.group(2)).strip()
              for m in re.finditer(r'<h2 id="([\w-]+)">(.*?)</h2>', html, flags=re.S)}
        for layout in docs.layouts():
            anchor = f"observation-space-{layout}"
            assert anchor in h2, f"{preset}: no h2 for layout {layout}; the h2s are {list(h2.values())}"
            assert h2[anchor].startswith(f"Observation space, layout {layout}"), (preset, h2[anchor])
            assert f'href="#{anchor}"' in html, f"{preset}: layout {layout} is not in the page's contents"
        assert h2["observation-space-v3"] == "Observation space, layout v3 (the default)", preset


def test_uno_version_names_the_package_and_the_environment_version(capsys):
    import uno_env
    from uno_apps.cli import main
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"uno-env {uno_env.__version__} (environment {uno_env.ENV_VERSION})"
    tomllib = pytest.importorskip("tomllib")
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["version"] == uno_env.__version__
    assert meta["classifiers"] and meta["keywords"] and meta["readme"] == "README.md"


@pytest.mark.parametrize("page", ["getting-started.md", "training.md"])
def test_the_python_examples_of_a_page_run_as_written(page):
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    for i, code in enumerate(re.findall(r"```python\n(.*?)```", text, flags=re.S)):
        exec(compile(code, f"docs/{page} block {i}", "exec"), {"__name__": "docs_example"})
