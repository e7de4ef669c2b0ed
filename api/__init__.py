"""The HTTP API (Litestar) and the `referee` command line: the only package that uses both
`referee` (the rules) and `eventstore` (PostgreSQL)."""
