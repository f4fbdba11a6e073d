"""The kit's own example lesson: a page and its experiment, for the tooling and its docs.

如何写一讲 and coursekit/README.md show what the drift guard says about an author's edits; those messages
come from edits of this page (EXAMPLE_EDITS below; coursekit/extensions/authoring.py: example_messages), never from a
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

# Edits an author might make to a lesson, made to this page, and what the guard says about them
# (coursekit.extensions.authoring.example_messages): coursekit/README.md and 如何写一讲 show these
# messages, produced by the guard itself (the page runs it; a test compares coursekit/README.md).
EXAMPLE_EDITS = [
    ("分母是它们的和 5.0562{=", "分母是它们的和 5.0526{="),  # a number changed in the prose
    ("负得分也是允许的", "负得分（比如 -0.3）也是允许的"),  # a new number that nothing binds
    ("位置 0 得到新向量 [0.8022, 1.1978]{=output[0]}", "位置 0 得到新向量 [0.8022, 1.1978]{=output}"),
]
