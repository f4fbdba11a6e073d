"""Every number bound on each page of the site, with its live value; `--fix` rewrites the drifted ones.

    python scripts/bound_numbers.py          # list: file:line, written, live value, expression;
                                             # then every number still unbound (exit 1 if any),
                                             # with the lesson's values that agree with it
    python scripts/bound_numbers.py --fix    # rewrite drifted numbers at their written precision
    python scripts/bound_numbers.py --bind PAGE   # write the bindings it is sure of (coursekit.core.proposer;
                                                  # ties told apart by the lesson's input_changes)
    python scripts/bound_numbers.py docs/lessons/11-masking.md   # only the pages named

With --fix a number written `0.5` whose live value is 0.4011 becomes `0.4`; `5.0526` with live
value 5.05623 becomes `5.0562`. It prints each change and exits non-zero if a drifted number could
not be rewritten (a fraction, say), so the build would still fail.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.core import engine, guard, numbers, pagetext, proposer, variations  # noqa: E402
from coursekit.extensions import authoring, checks  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="*", help="pages under docs/ (default: every page)")
    parser.add_argument("--fix", action="store_true", help="rewrite drifted numbers in the Markdown")
    parser.add_argument("--bind", action="store_true",
                        help="write {=expr} after each unbound number with a single best candidate")
    args = parser.parse_args()
    every = authoring.site_pages(ROOT)
    chosen = [(ROOT / p).resolve() for p in args.pages] or every
    unknown = [p for p, c in zip(args.pages, chosen) if c not in every]
    if unknown:
        parser.error(f"不是网站的页面（docs/ 下的 .md）：{', '.join(unknown)}")
    build = engine.Build(ROOT, planner=checks.plan)
    left = 0
    try:
        for path in chosen:
            found, bound, offset = authoring.check(build, ROOT, path)
            rel = path.relative_to(ROOT).as_posix()
            lesson_id = authoring.lesson(build, ROOT, path)
            if args.bind:
                text = pagetext.read(path)
                chosen = proposer.proposals(build, ROOT, lesson_id, found) if lesson_id else []
                chosen = proposer.settle_ties(build, ROOT, lesson_id, chosen)
                new, decisions = proposer.bind_sure(text, offset, found, chosen)
                for p, why in decisions:
                    print(f"{rel}:{p.line}: {'、'.join(p.written)}：{why}")
                if new != text:
                    path.write_text(new, encoding="utf-8")
                unbound = len(found.unbound) - sum(len(p.tokens) for p, why in decisions if why.startswith("写"))
                print(f"{rel}: 绑定了 {sum(1 for _, why in decisions if why.startswith('写'))} 处，还有 {unbound} 个数没有绑定")
                left += unbound
                continue
            if not args.fix:
                annotations = sum(1 for a in found.annotations if a.expr)
                print(f"{rel}: {len(bound)} bound numbers from {annotations} annotations")
                for b in bound:
                    mark = "" if b.agrees else "  ← 漂移"
                    print(f"  {rel}:{b.line}  {b.written:>8}  live {numbers.show(b.live):<10} {b.expr}{mark}")
                others = [p for p in found.problems if not p.message.startswith("数字漂移")]
                if others:
                    print(f"{rel}: {len(others)} 处要处理（未绑定的数、写错的标注）")
                    for p in others:
                        print(f"  {p.format()}")
                    left += len(others)
                    for p in proposer.proposals(build, ROOT, lesson_id, found) if lesson_id else []:
                        print(f"  {rel}:{p.line}: {'、'.join(p.written)} 可以绑定到 "
                              + "、".join(f"{{={e}}}" for e in p.exprs) + f"：写 {{={p.exprs[0]}}} 绑定？")
                continue
            text = pagetext.read(path)
            body, changes = guard.fix(text[offset:], bound)
            for b, new in changes:
                print(f"{rel}:{b.line}: {b.written} → {new}（表达式 {b.expr}，现算 {numbers.show(b.live)}）")
            if changes:
                path.write_text(text[:offset] + body, encoding="utf-8")
            left += sum(1 for b in bound if not b.agrees) - len(changes)
    except variations.ChangeError as e:
        print(e, file=sys.stderr)
        return 2
    finally:
        build.close()
    if args.fix and left:
        print(f"还有 {left} 个漂移的数无法按原精度改写（如分数），请手工修改。", file=sys.stderr)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
