-- The secret key of the bot opponent's draws in a game whose dice seed was fixed with `seed:` and so is
-- public: from that seed alone anyone could work out the bot's sealed choices before making their own
-- (bot/opponent.py ``decision_seed``). Empty for a game with a secret seed, which keys the draws itself.
-- Never published. Games made before get a key now.
ALTER TABLE games ADD COLUMN bot_key TEXT NOT NULL DEFAULT '';
UPDATE games SET bot_key = lower(hex(randomblob(16))) WHERE seed_public = 1;
