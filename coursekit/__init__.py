"""Build tooling for the course site: the drift guard, figures and MkDocs hooks.

Learners read `tinylm` and `lessons`; nothing here is lesson content.
"""
