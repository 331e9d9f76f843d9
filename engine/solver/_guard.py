"""Where the solver may run: a caller can refuse it for the code it runs.

The site's web process answers pages; the solver may think for seconds, so it runs on
workers only, and the web process says so by running each request inside
:func:`refused`. Any call of :func:`~engine.solver.solve` or
:func:`~engine.solver.arrange` from inside raises :class:`SolverRefused` at once, before
any work, instead of holding the request (and every push of that process) for seconds:
a mistake shows in the first test that takes that path, not as a slow site.
:func:`allowed` lifts the refusal for code that is a worker's job wherever it runs (a
task that a test runs in its own process).

The refusal is a context variable, so it holds for one request's thread or task and
for the threads it hands work to, and never for another request served alongside.

>>> from engine.ruleset import Ruleset
>>> from engine.solver import solve
>>> with refused("a web request"):
...     solve([], [], True, Ruleset())
Traceback (most recent call last):
...
engine.solver._guard.SolverRefused: the solver does not run in a web request
>>> with refused("a web request"), allowed():
...     solve([], [], True, Ruleset()).played
()
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_refusal: ContextVar[str | None] = ContextVar("solver_refusal", default=None)


class SolverRefused(RuntimeError):
    """The solver was called where it must not run (a web request)."""


@contextmanager
def refused(where: str) -> Iterator[None]:
    """The solver refuses to run inside this block; ``where`` names it in the error."""
    token = _refusal.set(where)
    try:
        yield
    finally:
        _refusal.reset(token)


@contextmanager
def allowed() -> Iterator[None]:
    """The solver runs inside this block, whatever refused it around it."""
    token = _refusal.set(None)
    try:
        yield
    finally:
        _refusal.reset(token)


def check_allowed() -> None:
    """Raise :class:`SolverRefused` if the solver may not run here."""
    where = _refusal.get()
    if where is not None:
        raise SolverRefused(f"the solver does not run in {where}")
