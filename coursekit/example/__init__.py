"""The kit's own example lesson: a page and its experiment, for the tooling and its docs.

如何写一讲 and coursekit/README.md show what the drift guard says about an author's edits; those messages
come from edits of this page (coursekit/extensions/facts.py: EXAMPLE_EDITS; authoring.py: example_messages), never from a
lesson of the course, so they stay the same whatever the lessons say, and no lesson's text is tied
to the docs. It is laid out like a lesson (a page whose numbers are bound to the names its
experiment computes, and EXPERIMENTS), but it is not one: it is not on the site, and it needs
neither torch nor a worker process (plain Python, evaluated in the build's own process).
"""

from pathlib import Path

EXPERIMENTS = [
    ("softmax_row", "一行分数变成读取比例，再汇总"),
]
PAGE = Path(__file__).with_name("lesson.md")
