"""The kit's own numbers that its pages state (如何写一讲, the README): a page outside a lesson binds
to these names, `最多运行 60 秒{=TIME_LIMIT}`, so the page follows the kit when a limit changes.
A page that belongs to a lesson (front matter `session: l10`) binds to that lesson's names instead."""

from coursekit.crossref import MAX_SUMMARY
from coursekit.engine import OUTPUT_LIMIT, TIME_LIMIT
from coursekit.pages import EXAMPLE_EDITS

__all__ = ["EXAMPLE_EDITS", "MAX_SUMMARY", "OUTPUT_LIMIT", "TIME_LIMIT"]
