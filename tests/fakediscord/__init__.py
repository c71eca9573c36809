"""A local fake of the Discord API (REST and gateway on 127.0.0.1) and payload builders for tests."""
