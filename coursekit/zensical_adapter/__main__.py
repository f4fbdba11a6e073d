"""python -m coursekit.zensical_adapter build | serve [options]: the site built by Zensical (see
coursekit.zensical_adapter)."""

from __future__ import annotations

import argparse
import sys

from coursekit.zensical_adapter import stage


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursekit.zensical_adapter", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["build", "serve"])
    parser.add_argument("-a", "--dev-addr", default="localhost:8000", help="serve: address and port")
    args = parser.parse_args(argv)
    if args.command == "build":
        return stage.build()
    return stage.serve(args.dev_addr)


if __name__ == "__main__":
    sys.exit(main())
