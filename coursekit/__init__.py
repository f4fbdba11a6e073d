"""Build tooling for the course site, in layers; learners read `tinylm` and `lessons`, not this.

- `coursekit.core`: what a page claims and how lessons run, builder-neutral: number formats and
  reading (numbers, scan, guard, printed, comments; the words they read with, lexicon; pagetext: a
  page's text as a reader gets it, BOM and line ends aside), bindings proposed for unbound numbers (queries:
  what the text asks; candidates: the search, in the lesson's worker; proposer), the lessons' runs
  (runner: how a lesson's files run; engine: scheduling, workers, evaluation; worker: the process; reads: what a run
<<<<<<< HEAD
  read and what it may not; blocks: page blocks; names: one value per name of a lesson's namespace; variations)
  and their sealed cache (store; digests, stamps: what it is keyed by; syntax: the one door to ast.parse), what pages show (shown,
=======
  read and what it may not; blocks: page blocks; variations)
  and their sealed cache (store; digests, stamps: what it is keyed by; syntax: the one door to ast.parse; spread:
  runs planned, run and merged across machines, `python -m coursekit`), what pages show (shown,
>>>>>>> ci39
  pasted, manifest, widgets, notebook, report, footer). It imports no builder and no Markdown library.
- `coursekit.extensions`: the Python-Markdown extensions over the core (checks, fence, crossref,
  cjk, codeblocks), and the tools that convert Markdown with them: the author's (authoring,
  facts) and the reviewer's (changes). Any builder that runs Python-Markdown extensions runs
  these; they import no builder.
- `coursekit.mkdocs_adapter`: what only MkDocs (with Material and mkdocs-jupyter) gets: hooks,
  the incremental serve (incremental; watcher: edits seen by content; restart: a glossary or kit edit restarts it;
  confirm: what confirm_shown.py runs, and serve's box button that runs it), the page cache (pagecache), search (search_index; segmenter:
  jieba), notebook pages (notebook_page), lazy_imports, the template cache and a faster poll
  (speed). The only layer that imports `mkdocs`, `material` or `mkdocs_jupyter`, and the only one
  that touches their private APIs (each labelled where it sits, pinned by tests/test_contracts.py).
- `coursekit.zensical_adapter`: what Zensical, which runs the extensions but no hooks and has no
  module API, is handed to build the same site (`python -m coursekit.zensical_adapter build|serve`;
  stage). The only layer that runs `zensical`.
- `coursekit/example`: the kit's own example lesson, for its documentation and tests.

No module of the kit imports one that imports it, at any remove. tests/test_layers.py checks the rules.

Words: a lesson's id ('l10', the folder lessons/l10) is `lesson_id` in the code (`Lesson.id`). Pages
name it with markdown-exec's word, `session`: front matter `session: l10` on a page outside
docs/lessons/, and a block's `session="l10"` option, which must be the page's own lesson.
"""

from pathlib import Path

KIT = Path(__file__).resolve().parent  # the kit that runs, wherever it was imported from
