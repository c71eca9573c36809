-- Hints asked in teaching games (hints:on): that a seat asked, after which action, and what the hint
-- said. The suggestion is shown to nobody (log, record) until the game is over.
CREATE TABLE hints (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    branch INTEGER NOT NULL,
    after_seq INTEGER NOT NULL,
    seat TEXT NOT NULL,
    user TEXT NOT NULL,
    suggestion TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX hints_game ON hints(game_id, id);
