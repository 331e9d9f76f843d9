"""The architecture contracts of ``pyproject.toml`` (``[tool.importlinter]``, run by
``make lint``) hold for the code, and fail when an import breaks one; every app of the
project is named wherever the tooling has to know it.

A broken contract is shown on a copy of the project with one offending import written into
it, checked by the real ``lint-imports`` in a process of its own (a process that has imported
the apps already would find them, not the copy).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LINTER = PYPROJECT["tool"]["importlinter"]
CONTRACTS = {contract["id"]: contract for contract in LINTER["contracts"]}
# Every top-level package but the tests and the benchmarks is code of the site.
PACKAGES = {init.parent.name for init in ROOT.glob("*/__init__.py")} - {"tests", "benchmarks"}


def lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the project at ``project``, whose packages come first on the path."""
    return subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache", "--no-logo"],
        cwd=project,
        # Wide lines: rich would otherwise wrap a contract's name across two.
        env={**os.environ, "PYTHONPATH": str(project), "COLUMNS": "300"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def verdicts(output: str) -> dict[str, str]:
    """Each contract's id and what lint-imports made of it, ``KEPT`` or ``BROKEN``."""
    found = {}
    for contract_id, contract in CONTRACTS.items():
        for verdict in ("KEPT", "BROKEN"):
            if f"{contract['name']} {verdict}" in output:
                found[contract_id] = verdict
    return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the project's packages and settings, to break."""
    for package in LINTER["root_packages"]:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def add(project: Path, path: str, code: str) -> None:
    """Append ``code`` to the module at ``path`` in the copy (made if it is new)."""
    module = project / path
    module.parent.mkdir(parents=True, exist_ok=True)
    with module.open("a") as file:
        file.write(f"\n{code}\n")


def test_the_code_keeps_every_contract() -> None:
    run = lint_imports(ROOT)

    assert run.returncode == 0, run.stdout + run.stderr
    assert verdicts(run.stdout) == dict.fromkeys(CONTRACTS, "KEPT")


BREAKS = {
    "the engine imports Django": (
        "engine-pure",
        {"engine/_offending.py": "import django.db"},
        "engine._offending -> django",
    ),
    "the engine imports an app": (
        "engine-pure",
        {"engine/_offending.py": "from games import models"},
        "engine._offending -> games.models",
    ),
    "the engine imports Channels": (
        "engine-pure",
        {"engine/tiles.py": "import channels.layers"},
        "engine.tiles -> channels",
    ),
    "games imports leagues": (
        "games-below-leagues",
        {"games/_offending.py": "from leagues import models"},
        "games._offending -> leagues.models",
    ),
    "games imports the moderation app once it is written": (
        "games-below-leagues",
        {"moderation/__init__.py": "", "games/_offending.py": "import moderation"},
        "games._offending -> moderation",
    ),
    "notifications imports games": (
        "notifications-below-games",
        {"notifications/_offending.py": "from games import models"},
        "notifications._offending -> games.models",
    ),
    "notifications imports the apps above games": (
        "notifications-below-games",
        {"notifications/_offending.py": "from moderation.notices import ModerationNotice"},
        "notifications._offending -> moderation.notices",
    ),
    "a read imports a service that writes": (
        "reads-not-writes",
        {"games/selectors/listing.py": "from games.services.turns import draw"},
        "games.selectors.listing -> games.services.turns",
    ),
    "a new module of the reads imports a row lock": (
        "reads-not-writes",
        {"games/selectors/_offending.py": "from games.services.locking import lock_game"},
        "games.selectors._offending -> games.services.locking",
    ),
    "a read imports a new module of the services": (
        "reads-not-writes",
        {
            "games/services/_offending.py": "",
            "games/selectors/scoreboard.py": "from games.services import _offending",
        },
        "games.selectors.scoreboard -> games.services._offending",
    ),
    "a read imports the package of the services": (
        "reads-not-writes",
        {"games/models.py": "import games.services"},
        "games.models -> games.services",
    ),
    "a read reaches a service through another module": (
        "reads-not-writes",
        {
            "games/_bridge.py": "from games.services.results import supersede",
            "games/selectors/replay.py": "import games._bridge",
        },
        "games._bridge -> games.services.results",
    ),
}


@pytest.mark.parametrize(("broken", "code", "chain"), BREAKS.values(), ids=BREAKS)
def test_an_offending_import_breaks_its_contract(
    project: Path, broken: str, code: dict[str, str], chain: str
) -> None:
    for path, line in code.items():
        add(project, path, line)

    run = lint_imports(project)

    assert run.returncode == 1, run.stdout + run.stderr
    expected = {**dict.fromkeys(CONTRACTS, "KEPT"), broken: "BROKEN"}
    assert verdicts(run.stdout) == expected, run.stdout
    assert chain in run.stdout


def test_games_may_not_import_moderation_once_it_is_a_root_package(project: Path) -> None:
    """How the contract bites once the moderation app is written and listed as an app."""
    add(project, "moderation/__init__.py", "")
    add(project, "games/_offending.py", "import moderation")
    settings = project / "pyproject.toml"
    roots = f"root_packages = {LINTER['root_packages']!r}".replace("'", '"')
    assert roots in settings.read_text()
    more = [*LINTER["root_packages"], "moderation"]
    settings.write_text(settings.read_text().replace(roots, f"root_packages = {more!r}"))

    run = lint_imports(project)

    assert run.returncode == 1, run.stdout + run.stderr
    assert verdicts(run.stdout)["games-below-leagues"] == "BROKEN"
    assert "games._offending -> moderation" in run.stdout


def test_the_engine_imports_only_the_standard_library() -> None:
    """What the engine-pure contract names, and whatever package comes next."""
    graph = grimp.build_graph("engine", include_external_packages=True, cache_dir=None)
    imported = {module.split(".")[0] for module in graph.modules} - {"engine"}

    assert "dataclasses" in imported
    assert imported <= sys.stdlib_module_names, imported - sys.stdlib_module_names


def test_every_app_is_named_wherever_the_tooling_needs_it() -> None:
    """A new app is checked by mypy, has its doctests run, is packaged, and is held by
    the contracts as soon as it exists."""
    tool = PYPROJECT["tool"]
    packaged = {
        pattern.rstrip("*") for pattern in tool["setuptools"]["packages"]["find"]["include"]
    }

    assert {"config", "accounts", "games", "leagues", "engine"} <= PACKAGES
    assert set(LINTER["root_packages"]) == PACKAGES
    assert set(tool["mypy"]["files"]) >= PACKAGES
    assert set(tool["pytest"]["ini_options"]["testpaths"]) >= PACKAGES
    assert packaged >= PACKAGES
    assert set(CONTRACTS["engine-pure"]["forbidden_modules"]) >= PACKAGES - {"engine"}


def test_the_reads_contract_holds_the_read_package_against_every_service() -> None:
    """The reads are named as packages, so a new module of :mod:`games.selectors` is held
    by the contract as soon as it exists, and so is a new module of the services."""
    contract = CONTRACTS["reads-not-writes"]

    assert set(contract["source_modules"]) == {"games.selectors", "games.models"}
    assert contract["forbidden_modules"] == ["games.services"]
    assert contract.get("as_packages", True) is True
    assert (ROOT / "games/selectors/__init__.py").is_file()
