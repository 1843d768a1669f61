"""Storage: the `Store` protocol and its one SQL layer over SQLite and PostgreSQL, the shared and the games' own
migrations."""
