"""The rules: pure, synchronous, deterministic. Standard library and pydantic only."""
