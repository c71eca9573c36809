-- A game belongs to the community it was created in (a Discord guild, "guild:<id>";
-- the local console is the one community "console"). Games from before this migration
-- that were played in the console are put in it; a Discord transport fills in the rest
-- from the channel's guild when it starts.
ALTER TABLE games ADD COLUMN community TEXT NOT NULL DEFAULT '';
UPDATE games SET community = 'console' WHERE place LIKE 'console:%';
CREATE INDEX games_community ON games(community, status);

-- A sealed choice whose phase is over (no secret decision waits any more) but whose
-- content stays hidden until it is revealed (Annihilator's hidden charges): the log
-- can go on past it, because how many such choices there were is public by then.
ALTER TABLE secrets ADD COLUMN closed_at INTEGER;
UPDATE secrets SET closed_at = revealed_at WHERE revealed_at IS NOT NULL;

-- The action a moderator's correction of the position became (``/mod edit``), so a record's
-- edits can be matched with the moderation log.
ALTER TABLE modlog ADD COLUMN seq INTEGER;
