"""Settings and code run by a fresh interpreter, in the environment a test gives it: what
the settings make of the environment can only be seen in a process that reads it anew."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable

from django.conf import settings


def run_python(
    code: str, *, without: Iterable[str] = (), **environ: str
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` on the project's settings, in this environment less ``without`` and
    with ``environ``."""
    left_out = set(without)
    env = {k: v for k, v in os.environ.items() if k not in left_out}
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings", **environ},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
