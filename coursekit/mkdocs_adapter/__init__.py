"""The MkDocs adapter: hooks, serve, page cache, search, notebook pages (see coursekit)."""
