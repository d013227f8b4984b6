"""What the README and docs/ say about the code stays true: the import rules of
docs/architecture.md, the files they name and the links between them."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
# Made when the site runs (scripts/serve), never committed.
RUNTIME = ("var/", "staticfiles/")
FILE_ENDINGS = re.compile(r"\.(py|md|toml|yaml|json|jsonl|html|js|css)$")


def imported_modules(folder: Path) -> list[tuple[str, str]]:
    """(file, module) for every import of every Python file under `folder`."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [(str(path.relative_to(REPO_ROOT)), alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.append((str(path.relative_to(REPO_ROOT)), node.module))
    return found


def test_scoring_never_imports_tournament():
    found = imported_modules(REPO_ROOT / "scoring")
    assert [(f, m) for f, m in found if m.split(".")[0] == "tournament"] == []


def test_the_scoring_engine_imports_no_django():
    found = imported_modules(REPO_ROOT / "scoring" / "engine")
    assert [(f, m) for f, m in found if m.split(".")[0] == "django"] == []


def committed_paths() -> set[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files"], cwd=REPO_ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    paths = set(listed)
    for name in listed:
        parts = name.split("/")
        paths.update("/".join(parts[:i]) + "/" for i in range(1, len(parts)))
    return paths


def named_paths(text: str) -> list[str]:
    """The repository paths a document names in backticks: a folder (`tournament/services/`)
    or a file (`scoring/engine/rulebook.py`, `live.js`), not an address, a command or a
    pattern."""
    found = []
    for token in re.findall(r"`([^`\s]+)`", text):
        if not re.fullmatch(r"[\w.\-/]+", token) or re.fullmatch(r"[\d/]+", token):
            continue
        if token.startswith(("/", "..", ".venv", *RUNTIME, "rules/")):
            continue
        if "/" in token or FILE_ENDINGS.search(token):
            found.append(token)
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_every_path_a_document_names_exists(doc):
    paths = committed_paths()
    top = {path.split("/")[0] for path in paths}
    shared_data = ("mcr-cases.jsonl", "mcr-cases-greenbook-changes.jsonl")  # ../shared/data
    missing = [
        token
        for token in named_paths(doc.read_text(encoding="utf-8"))
        # A file named alone or within its folder (`jt/patterns.py`) is found by its ending.
        if not any(path.endswith(("/" + token, "/" + token + "/")) for path in paths)
        and token not in paths
        and token.rstrip("/") + "/" not in paths
        # A page's address relative to another (`check-in/`, `ema/readiness/`) is no file.
        and not (token.endswith("/") and token.split("/")[0] not in top)
        and token not in shared_data
    ]
    assert missing == []


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a document's headings."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(slug)
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_every_link_between_documents_leads_somewhere(doc):
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        name, _, anchor = target.partition("#")
        linked = (doc.parent / name).resolve() if name else doc
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md":
            if anchor not in anchors(linked.read_text(encoding="utf-8")):
                broken.append(target)
    assert broken == []
