"""How the services depend on each other: no import hidden in a function, locks a leaf."""

import ast
from pathlib import Path

import games.services

SERVICES = Path(games.services.__file__).parent
LEAF_MAY_IMPORT = (
    "accounts.models",
    "dataclasses",
    "datetime",
    "django.",
    "engine.",
    # Settings only (the play and chat policies a lock's checks ask): no service.
    "games.conf",
    "games.errors",
    "games.models",
)


def _tree(name: str) -> ast.Module:
    return ast.parse((SERVICES / name).read_text(), filename=name)


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return [alias.name for alias in node.names]


def test_no_service_imports_inside_a_function() -> None:
    hidden = []
    for path in sorted(SERVICES.glob("*.py")):
        for function in ast.walk(_tree(path.name)):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    hidden.append(f"{path.name}:{node.lineno} {', '.join(_imported(node))}")
    assert hidden == []


def test_the_locking_module_imports_no_service() -> None:
    imports = [
        module
        for node in ast.walk(_tree("locking.py"))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for module in _imported(node)
    ]
    assert imports
    assert [m for m in imports if m != "__future__" and not m.startswith(LEAF_MAY_IMPORT)] == [], (
        "services.locking is a leaf: models, errors, settings and the engine only"
    )
