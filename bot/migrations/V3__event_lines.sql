-- What each action said, kept when it is committed: a JSON list of [text, [seats]] (no seats: public).
-- The log of a game is then a query, filtered per reader, instead of a replay of the whole game.
-- Actions from before this migration have none; the log replays for those.
ALTER TABLE actions ADD COLUMN events TEXT;
