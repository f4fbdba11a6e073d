"""Confirm what lesson pages show now: their listings, printed outputs and executed blocks.

    python scripts/confirm_shown.py docs/lessons/10-attention.md   # one page, after reading it
    python scripts/confirm_shown.py --all                          # every lesson page

A build fails when a listing or output on a lesson page differs from the page's reviewed record
(`lessons/lNN/reviewed.json`, see coursekit/core/shown.py), because shared code changed under prose
written for the old output. Read the page (`mkdocs serve` shows it, with each change in its box);
if the prose still fits, this command rebuilds the site once, writes what each named page shows
now into its record and prints what changed. Commit the record: the pull request's diff shows the
reviewer exactly what changed on a published page. It refuses while the build fails for another
reason (a drifted number, failing code), and writes nothing then. Under `mkdocs serve` the page's box
has a button that does the same (coursekit/mkdocs_adapter/confirm.py holds both).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.extensions import authoring  # noqa: E402
from coursekit.mkdocs_adapter import confirm  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="*", help="lesson pages to confirm, e.g. docs/lessons/10-attention.md")
    parser.add_argument("--all", action="store_true", help="confirm every lesson page")
    args = parser.parse_args(argv)
    pages = [p.relative_to(ROOT).as_posix() for p in authoring.lesson_pages(ROOT)] if args.all else args.pages
    done = confirm.confirm(ROOT, pages)
    if done.code == 0:
        print("\n".join(done.said))
    else:
        sys.stderr.write(done.failed)
        print("\n".join(done.said), file=sys.stderr)
    return done.code


if __name__ == "__main__":
    sys.exit(main())
