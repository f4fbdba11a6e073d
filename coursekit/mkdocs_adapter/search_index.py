"""The site's search index, written once more as UTF-8.

Material's search plugin writes `search/search_index.json` with every non-ASCII character escaped:
a Chinese character takes 6 bytes (`\\u6ce8`) instead of 3, and so does each zero-width space that
jieba's segmentation puts between words. Every page of the site fetches that file on load, so
`compact` rewrites it with the same content as plain UTF-8 JSON, about 40 % smaller for this site.
Run it after the search plugin has written the index (the hooks' on_post_build does).

Material's index file and its `docs` list are its own format, pinned with Material 9.8.1 and
checked by tests/test_contracts.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


def compact(site_dir: str | Path, entries: Callable[[list[dict]], list[dict]] | None = None) -> int:
    """Rewrite the index as UTF-8 JSON, its entries first passed through `entries` when given (serve
    merges a dirty build's entries with the previous ones: coursekit/mkdocs_adapter/incremental.py); its size in
    bytes afterwards (0 when there is no index)."""
    path = Path(site_dir) / "search/search_index.json"
    if not path.exists():
        return 0
    data = json.loads(path.read_text(encoding="utf-8"))
    if entries is not None:
        data["docs"] = entries(data["docs"])
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))
