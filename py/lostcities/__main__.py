"""``python -m lostcities <command> [args...]``: the command line.

Each command lives in its own module exposing ``main(argv: list[str]) -> int`` (argv without
the command name; the return value is the exit code, 2 for bad usage or input). To add a
command, add one line to ``COMMANDS``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("lostcities.cli.score", "score one expedition: score H H 4 5 6 7 8 10"),
    "simulate": ("lostcities.cli.simulate", "play bot-vs-bot matches and print the results"),
    "protocol": ("lostcities.cli.protocol", "play a match over JSON lines on stdin/stdout"),
}
"""Command name -> (module with ``main(argv) -> int``, one-line help)."""

USAGE = "usage: python -m lostcities COMMAND [ARGS...]\n\ncommands:\n" + "".join(
    f"  {name:<10} {help_}\n" for name, (_, help_) in COMMANDS.items()
) + "\nRun 'python -m lostcities COMMAND --help' for a command's options."


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to a command's ``main``; returns its exit code (2 for an unknown command)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    entry = COMMANDS.get(args[0])
    if entry is None:
        print(f"python -m lostcities: error: unknown command {args[0]!r}\n\n{USAGE}",
              file=sys.stderr)
        return 2
    try:
        module = importlib.import_module(entry[0])
    except ModuleNotFoundError as exc:
        if exc.name != entry[0]:
            raise
        print(f"python -m lostcities: error: the {args[0]!r} command is not available yet",
              file=sys.stderr)
        return 2
    command: Callable[[list[str]], int] = module.main
    return command(args[1:])


if __name__ == "__main__":
    sys.exit(main())
