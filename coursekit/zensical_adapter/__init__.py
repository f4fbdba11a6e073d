"""Zensical as a second builder: the same site from the same sources, with what Zensical lacks
bridged by the least private means (coursekit).

Zensical (0.0.73) reads mkdocs.yml and runs the Python-Markdown extensions, so the checks, the
code blocks, the cross references and the home page's table work as under MkDocs (the extensions
raise, and Zensical exits non-zero, naming file and line). It runs no MkDocs hooks or plugins and
has no module API, so `python -m coursekit.zensical_adapter build` prepares what the hooks make
and hands Zensical a configuration of its own:

- every lesson's notebook is made from its run (coursekit.core.notebook), written beside a copy of
  docs/ in .cache/coursekit/zensical/docs as a Markdown page (`lessons/NN-notebook.md`, the same
  Markdown the MkDocs adapter renders) with the .ipynb to download next to it;
- the configuration there is mkdocs.yml, edited as text (its `!ENV` and `!!python/name` tags stay):
  the notebooks' nav entries point at those pages, `variant: classic` (the templates overrides/
  extends), the `watch` paths are absolute, and the checks extension's `footer` option is on
  (Zensical has no page event to add the footer: the extension adds it);
- overrides/ is copied beside it without `partials/search.html` (Material's search box breaks
  Zensical's header), and the last line of every page names Zensical as the builder;
- `build` runs `zensical build -f` that file, in the repository (snippets and lessons are found
  from there), moves the site to site/, and fails, after the build, if a lesson's notebook could
  not be made; `serve` runs `zensical serve` on it and copies each file saved under docs/ over
  (polled every 0.1 s), and makes the notebooks again when lessons/ or tinylm/ change.

What it does not do: the MkDocs page cache and incremental serve (Zensical keeps its own cache),
Material's search segmenter for Chinese (Zensical indexes with its own), the manifest for
reviewers, and a failing page shown in a red box while serving (under Zensical the page fails to
build and its log names file and line).
"""
