"""The rules: pure, synchronous, deterministic. No I/O, no asyncio, no database, no web."""
