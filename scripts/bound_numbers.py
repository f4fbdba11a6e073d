"""Print every number the drift guard binds on each lesson page: line, written text, live value.

    python scripts/bound_numbers.py
"""

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit import capture, drift, numbers  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as site:
        pages = capture.build_and_capture(ROOT / "mkdocs.yml", Path(site))
    for path, (page, bindings) in sorted(pages.items()):
        bound = drift.bound_numbers(page, bindings)
        print(f"docs/{path}: {len(bound)} bound numbers from {len(bindings)} bindings")
        for n in bound:
            print(f"  line {n.line:>4}  {n.written:>8}  live {numbers.show(n.live)}")


if __name__ == "__main__":
    main()
