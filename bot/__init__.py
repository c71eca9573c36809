"""All I/O: the bot core, the Discord and console transports, the SQLite store."""
