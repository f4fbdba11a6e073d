"""What a change does to what readers see: the numbers, listings, outputs and pages it changes.

    python scripts/changes.py BASE HEAD     # two manifests (coursekit-manifest.json) or built sites
    python scripts/changes.py               # the working tree against the last commit on main
    options: --preview URL (links into a preview), --full URL (link to the whole report),
             --all (every changed number, not the first few)

    in a pull request's CI run (.github/workflows/ci.yml):
    python scripts/changes.py BASE site --based-on "same SHA" --page site/_changes --summary preview/changes.json
             --based-on: what BASE is, as scripts/base_manifest.sh prints it ("same SHA",
             "published SHA" or "none"); --page DIR writes the whole report as DIR/index.html,
             --summary FILE its short form for the publisher's comment. A BASE that is missing or
             unreadable is said in both (nothing compared), not an error: the preview still works.

Every `mkdocs build` writes the manifest beside the site (coursekit/core/manifest.py). Without
arguments this builds the last commit on main (in a throwaway worktree) and the working tree, so an
author sees the reach of a tinylm edit before pushing. It prints Markdown (coursekit/extensions/changes.py).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.core import manifest  # noqa: E402
from coursekit.extensions import changes  # noqa: E402
from scripts.drive import mkdocs_build  # noqa: E402


def built(root: Path, site: Path) -> Path:
    """Build `root` into `site`; its manifest (also when the build fails on a problem of a page)."""
    result = mkdocs_build(root, site, "-q")
    if not (site / manifest.NAME).is_file():
        raise SystemExit(f"{root} 没有构建完（没有写出 {manifest.NAME}）：\n{result.stderr[-2000:]}")
    if result.returncode:
        print(f"注意：{root} 的构建报了问题（数字漂移之类），下面比较的是它写出的内容。", file=sys.stderr)
    return site / manifest.NAME


def working_tree_against_main(scratch: Path) -> tuple[Path, Path]:
    base = scratch / "main"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), "main"], cwd=ROOT, check=True)
    try:
        return built(base, scratch / "main-site"), built(ROOT, scratch / "head-site")
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", nargs="?", type=Path)
    parser.add_argument("head", nargs="?", type=Path)
    parser.add_argument("--preview", default="", help="the preview's address: page links point into it")
    parser.add_argument("--full", default="", help="where the whole report is")
    parser.add_argument("--all", action="store_true", help="list every changed number")
    parser.add_argument("--based-on", default="", help='what BASE is: "same SHA", "published SHA" or "none"')
    parser.add_argument("--page", type=Path, help="write the whole report as PAGE/index.html")
    parser.add_argument("--summary", type=Path, help="write the short form (JSON) for the comment")
    args = parser.parse_args()
    if (args.base is None) != (args.head is None):
        parser.error("给两个清单（或两个构建好的站点），或者都不给")
    how, _, commit = args.based_on.partition(" ")
    if how not in ("", "same", "published", "none"):
        parser.error(f"--based-on {args.based_on!r}: 应是 same SHA、published SHA 或 none")
    base_of = changes.Base(how or "given", commit.strip())
    with tempfile.TemporaryDirectory(prefix="coursekit-changes-") as scratch:
        base, head = (args.base, args.head) if args.base else working_tree_against_main(Path(scratch))
        try:
            head_manifest = manifest.load(head)
        except ValueError as err:
            parser.error(str(err))
        try:
            found = None if how == "none" else changes.compare(manifest.load(base), head_manifest)
        except ValueError as err:
            if not (args.page or args.summary):
                parser.error(str(err))
            found, base_of = None, changes.Base("none", why=f"基准清单不能用：{err}")
    if args.page:
        args.page.mkdir(parents=True, exist_ok=True)
        (args.page / "index.html").write_text(changes.page(found, base_of), encoding="utf-8")
    if args.summary:
        args.summary.parent.mkdir(parents=True, exist_ok=True)
        args.summary.write_text(json.dumps(changes.summary(found, base_of), ensure_ascii=False, indent=1) + "\n",
                                encoding="utf-8")
    print(changes.markdown(found, args.preview, args.full, most=10**9 if args.all else changes.MOST,
                           base=base_of), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
