"""The architecture contracts of ``pyproject.toml`` (``[tool.importlinter]``, run by
``make lint``) hold for the code, and each fails when an import breaks it; every app of
the project is named wherever the tooling has to know it.

A broken contract is shown on a copy of the project with an offending import written into
it, checked by the real ``lint-imports`` in a process of its own (a process that has
imported the apps already would find them, not the copy). One copy serves the whole
module: each test puts back what it wrote. The contracts are read from ``pyproject.toml``,
so a new one is checked as soon as it is declared, and fails here until :data:`OFFENDERS`
names an import that breaks it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LINTER = PYPROJECT["tool"]["importlinter"]
CONTRACTS = {contract["id"]: contract for contract in LINTER["contracts"]}
# Every top-level package but the tests and the benchmarks is code of the site.
PACKAGES = {init.parent.name for init in ROOT.glob("*/__init__.py")} - {"tests", "benchmarks"}

OFFENDERS: dict[str, tuple[str, str]] = {
    # contract id: (the module of the copy to write into, an import that breaks it)
    "engine-pure": ("engine/tiles.py", "import django.db"),
    "games-below-leagues": ("games/rendering.py", "from leagues.models import Season"),
    "leagues-below-moderation": ("leagues/standings.py", "import moderation.policies"),
    "reads-not-writes": ("leagues/selectors/standings.py", "from games.services import turns"),
    "common-below-apps": ("common/_offending.py", "from leagues import models"),
    "notifications-below-games": ("notifications/models.py", "from games.models import Game"),
    "games-four-doors": ("leagues/house_rules.py", "from games.errors import TableError"),
}
"""One offending import per contract: a contract with no entry fails
:func:`test_an_offending_import_breaks_its_contract`."""

Offend = Callable[[str, str], None]


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


def assert_only_broken(run: subprocess.CompletedProcess[str], broken: str) -> None:
    assert run.returncode == 1, run.stdout + run.stderr
    assert verdicts(run.stdout) == {**dict.fromkeys(CONTRACTS, "KEPT"), broken: "BROKEN"}, (
        run.stdout
    )


def module_name(path: str) -> str:
    """``games/selectors/rows.py`` -> ``games.selectors.rows``."""
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project's packages and settings, to break: one for the module, each
    test putting back what it wrote (:func:`offend`)."""
    root = tmp_path_factory.mktemp("project")
    for package in LINTER["root_packages"]:
        shutil.copytree(
            ROOT / package, root / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", root)
    return root


@pytest.fixture
def offend(project: Path) -> Iterator[Offend]:
    """``offend(path, code)`` appends ``code`` to the module at ``path`` of the copy (made
    if it is new, in an existing package); the copy is put back as it was afterwards."""
    before: dict[Path, str | None] = {}

    def write(path: str, code: str) -> None:
        module = project / path
        assert module.parent.is_dir(), f"{path}: no such package in the copy"
        before.setdefault(module, module.read_text() if module.exists() else None)
        with module.open("a") as file:
            file.write(f"\n{code}\n")

    yield write
    for module, text in before.items():
        if text is None:
            module.unlink()
        else:
            module.write_text(text)


def test_the_code_keeps_every_contract() -> None:
    run = lint_imports(ROOT)

    assert run.returncode == 0, run.stdout + run.stderr
    assert verdicts(run.stdout) == dict.fromkeys(CONTRACTS, "KEPT")


@pytest.mark.parametrize("contract_id", CONTRACTS)
def test_an_offending_import_breaks_its_contract(
    project: Path, offend: Offend, contract_id: str
) -> None:
    assert contract_id in OFFENDERS, (
        f"contract {contract_id!r} has no offending import: add one to OFFENDERS"
    )
    path, code = OFFENDERS[contract_id]
    offend(path, code)

    run = lint_imports(project)

    assert_only_broken(run, contract_id)
    assert f"{module_name(path)} -> " in run.stdout


def test_every_offender_names_a_contract() -> None:
    assert set(OFFENDERS) <= set(CONTRACTS), set(OFFENDERS) - set(CONTRACTS)


BREAKS = {
    "the engine imports an app from a new module": (
        "engine-pure",
        {"engine/_offending.py": "from games import models"},
        "engine._offending -> games.models",
    ),
    "games imports moderation": (
        "games-below-leagues",
        {"games/_offending.py": "import moderation"},
        "games._offending -> moderation",
    ),
    "common imports a feature app": (
        "common-below-apps",
        {"common/_offending.py": "from games import models"},
        "common._offending -> games.models",
    ),
    "common imports the accounts it serves": (
        "common-below-apps",
        {"common/signals.py": "import accounts.models"},
        "common.signals -> accounts.models",
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
    "the models import the package of the services": (
        "reads-not-writes",
        {"games/models/__init__.py": "import games.services"},
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
    "the rendering reads a draft through its service": (
        "reads-not-writes",
        {"games/rendering.py": "from games.services.drafts import save_draft"},
        "games.rendering -> games.services.drafts",
    ),
    "a socket records through a service": (
        "reads-not-writes",
        {"leagues/consumers.py": "from leagues.services import seasons"},
        "leagues.consumers -> leagues.services.seasons",
    ),
    "moderation reaches games' conf from its tasks": (
        "games-four-doors",
        {"moderation/tasks.py": "from games import conf"},
        "moderation.tasks -> games.conf",
    ),
    "a new module of leagues reaches games' pages": (
        "games-four-doors",
        {"leagues/_offending.py": "import games.views.common"},
        "leagues._offending -> games.views.common",
    ),
    "a view of leagues builds on games' forms, which only the league form may": (
        "games-four-doors",
        {"leagues/views/leagues.py": "from games.forms import TableSettingsForm"},
        "leagues.views.leagues -> games.forms",
    ),
    "moderation asks games' permissions instead of its sight": (
        "games-four-doors",
        {"moderation/policies.py": "from games.permissions import can_view_table"},
        "moderation.policies -> games.permissions",
    ),
    "a read of moderation imports a service of games": (
        "reads-not-writes",
        {"moderation/selectors/evidence.py": "from games.services.clock import pauses_of"},
        "moderation.selectors.evidence -> games.services.clock",
    ),
}
"""More ways to break the contracts, each to be caught: new modules on either side,
imports of a whole package or through a module no contract names, and the reads
:data:`OFFENDERS` does not use."""


@pytest.mark.parametrize(("broken", "code", "chain"), BREAKS.values(), ids=BREAKS)
def test_more_offending_imports_break_their_contract(
    project: Path, offend: Offend, broken: str, code: dict[str, str], chain: str
) -> None:
    for path, line in code.items():
        offend(path, line)

    run = lint_imports(project)

    assert_only_broken(run, broken)
    assert chain in run.stdout


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


READS = ("selectors", "models", "rendering", "consumers")
"""The parts of an app that read (a package or a module of that name)."""


def parts_named(names: tuple[str, ...]) -> set[str]:
    """``app.part`` for every app of the project that has a part of one of ``names``."""
    return {
        f"{app}.{name}"
        for app in PACKAGES
        for name in names
        if (ROOT / app / name).is_dir() or (ROOT / app / f"{name}.py").is_file()
    }


def test_the_reads_contract_holds_every_app_s_reads_against_every_service() -> None:
    """Every app's reads and services are named as they are (packages, so a new module
    of either is held as soon as it exists): a new app's, or a new read part of an app,
    must be added to the contract."""
    contract = CONTRACTS["reads-not-writes"]

    assert set(contract["source_modules"]) == parts_named(READS)
    assert set(contract["forbidden_modules"]) == parts_named(("services",))
    assert contract.get("as_packages", True) is True
    assert {"games.selectors", "games.models", "games.services"} <= parts_named(
        (*READS, "services")
    )


GAMES_DOORS = ("services", "models", "signals", "selectors")
"""The modules of games the apps above it may import (the ``games-four-doors`` contract)."""


def top_level_modules(app: str) -> set[str]:
    """The modules and packages at the top of ``app``, as ``app.name``."""
    folder = ROOT / app
    modules = {path.stem for path in folder.glob("*.py")} - {"__init__"}
    packages = {path.parent.name for path in folder.glob("*/__init__.py")}
    return {f"{app}.{name}" for name in modules | packages}


def test_leagues_and_moderation_are_kept_from_every_module_of_games_but_its_doors() -> None:
    """Every module of games but the four doors is forbidden by name, so a new one is
    held as soon as it exists; the one import let through is the league form's."""
    contract = CONTRACTS["games-four-doors"]
    doors = {f"games.{door}" for door in GAMES_DOORS}

    assert doors <= top_level_modules("games")
    assert set(contract["source_modules"]) == {"leagues", "moderation"}
    assert set(contract["forbidden_modules"]) == top_level_modules("games") - doors
    assert contract["ignore_imports"] == ["leagues.forms.leagues -> games.forms"]
