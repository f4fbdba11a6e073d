"""The builder-neutral core: numbers a page claims, lessons' runs and their cache (see coursekit)."""


class CourseError(Exception):
    """What the course's checks raise for an author to fix: one `file:line: message` line each. A
    builder's adapter shows it its own way (MkDocs: as a PluginError, with no traceback)."""
