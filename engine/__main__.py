"""``python -m engine <command>``: the JSON line protocol (see :mod:`engine.protocol`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine import match
from engine.protocol import COMMANDS, run


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and serve the chosen command until end of input."""
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description=(
            "Rummikub rules engine. Each command reads JSON objects one per line on "
            "standard input and writes one JSON answer per line, in order."
        ),
    )
    commands = parser.add_subparsers(dest="command", metavar="command", required=True)
    for name, command in sorted(COMMANDS.items()):
        commands.add_parser(name, help=command.summary, description=command.summary)
    # Commands that take options rather than JSON lines set their own ``run``.
    match.add_command(commands)
    args = parser.parse_args(argv)
    if hasattr(args, "run"):
        status: int = args.run(args)
        return status
    try:
        run(args.command)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away; nothing is left to answer to.
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
