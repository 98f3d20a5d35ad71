"""The docs a newcomer walks: a short README, docs and package READMEs that say how things are
(no history), and links that lead somewhere (docs/README.md is the index)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))
# Each app's README says what the app holds (the map in README.md links them).
PACKAGE_READMES = sorted(page for folder in ("casino", "tables", "audit", "deploy")
                         for page in (ROOT / folder).rglob("README.md"))
PAGES = [README, *DOCS, *PACKAGE_READMES]

# History belongs to git: a doc says how things are, not which session or issue made them so.
HISTORY = {
    "a session number": re.compile(r"\bsession\s+\d+", re.IGNORECASE),
    "an issue number": re.compile(r"\bissue\s+#\d+", re.IGNORECASE),
    # A commit hash: 7 to 40 hex digits with at least one letter and one digit, so that plain
    # numbers (1000000) and words (deface) are not taken for one.
    "a commit hash": re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"),
}

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def _prose(text: str) -> str:
    """The text outside code blocks and code spans (a link shown as code is not a link)."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def _anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    return re.sub(r"\s", "-", re.sub(r"[^\w\- ]", "", text))


def _anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text())):
        base = _anchor(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        anchors.add(base if count == 0 else f"{base}-{count}")
    return anchors


def _relative_links(page: Path) -> list[str]:
    return [target for target in LINK.findall(_prose(page.read_text()))
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)]


def test_the_readme_is_one_page():
    lines = README.read_text().count("\n")
    assert lines < 200, f"README.md has {lines} lines; move detail into docs/ (by audience)"


def test_the_readme_quick_start_names_make_targets_that_exist():
    makefile = (ROOT / "Makefile").read_text()
    quick_start = README.read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^make (\w+)", FENCE.search(quick_start).group(0), re.MULTILINE)
    assert commands == ["run", "test"], commands
    for target in commands:
        assert re.search(rf"^{target}:", makefile, re.MULTILINE), f"the Makefile has no `{target}` target"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_carry_no_history(page):
    text = page.read_text()
    found = [f"{what}: {match.group(0)!r}" for what, pattern in HISTORY.items() for match in pattern.finditer(text)]
    assert not found, f"{page.relative_to(ROOT)}: git keeps the history; {found}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page):
    broken = []
    for target in _relative_links(page):
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif fragment and file.suffix == ".md" and fragment not in _anchors(file):
            broken.append(f"{target}: no heading with that anchor in {file.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_docs_index_lists_every_doc():
    index = ROOT / "docs" / "README.md"
    listed = {(index.parent / target.partition("#")[0]).resolve() for target in _relative_links(index)}
    missing = [str(page.relative_to(ROOT)) for page in DOCS if page != index and page.resolve() not in listed]
    assert not missing, f"docs/README.md does not list: {missing}"


def test_the_link_checker_sees_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# A heading: with `code`\n")
    page.write_text("[ok](there.md#a-heading-with-code) [gone](missing.md) `[shown](code.md)` "
                    "[web](https://example.com) [bad anchor](there.md#nowhere)\n")
    assert _relative_links(page) == ["there.md#a-heading-with-code", "missing.md", "there.md#nowhere"]
    assert _anchors(tmp_path / "there.md") == {"a-heading-with-code"}
    assert [bool(HISTORY["a commit hash"].search(word)) for word in ("7aab571", "1000000", "deface", "e4356e5")] == [
        True, False, False, True]


def test_every_environment_variable_is_in_the_configuration_doc():
    """Each variable the settings, gunicorn and the environment template read is described once,
    in docs/operations/configuration.md."""
    read = set(re.findall(r"\benv_\w+\(\s*\"([A-Z][A-Z0-9_]+)\"", (ROOT / "casino" / "settings.py").read_text()))
    read |= set(re.findall(r"environ\.get\(\"([A-Z][A-Z0-9_]+)\"", (ROOT / "deploy" / "gunicorn.conf.py").read_text()))
    read |= set(re.findall(r"^#?([A-Z][A-Z0-9_]+)=", (ROOT / "deploy" / "env.example").read_text(), re.MULTILINE))
    assert {"DATABASE_URL", "SECRET_KEY", "GUNICORN_WORKERS", "CELERY_WORKER_CONCURRENCY"} <= read
    described = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|",
                               (ROOT / "docs" / "operations" / "configuration.md").read_text(), re.MULTILINE))
    assert not read - described, f"not in docs/operations/configuration.md: {sorted(read - described)}"
