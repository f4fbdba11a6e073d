"""Python-Markdown extensions over the core, and the author's tools built on them (see coursekit)."""
