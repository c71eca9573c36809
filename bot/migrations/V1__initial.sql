-- Games, the append-only action log with its dice, snapshots, sealed secrets,
-- branches kept by rollbacks, the outbox of replies not yet posted, the moderation log.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    place       TEXT NOT NULL,
    parent      TEXT NOT NULL DEFAULT '',
    game        TEXT NOT NULL,
    config      TEXT NOT NULL,
    status      TEXT NOT NULL,
    seed        TEXT NOT NULL,
    seed_public INTEGER NOT NULL DEFAULT 0,
    setup_rolls TEXT NOT NULL DEFAULT '[]',
    branch      INTEGER NOT NULL DEFAULT 1,
    settings    TEXT NOT NULL DEFAULT '{}',
    created_by  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX games_place ON games(place, status);

CREATE TABLE branches (
    game_id       INTEGER NOT NULL REFERENCES games(id),
    branch        INTEGER NOT NULL,
    parent_branch INTEGER,
    fork_seq      INTEGER NOT NULL DEFAULT 0,
    dice_key      TEXT NOT NULL,
    reason        TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    PRIMARY KEY (game_id, branch)
);

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    branch     INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    seat       TEXT NOT NULL,
    user       TEXT NOT NULL,
    action     TEXT NOT NULL,
    rolls      TEXT NOT NULL DEFAULT '[]',
    dice_key   TEXT NOT NULL,
    dice_seq   INTEGER NOT NULL,
    secret     INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, branch, seq)
);

CREATE TABLE secrets (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    branch      INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    nonce       TEXT NOT NULL,
    commitment  TEXT NOT NULL,
    revealed_at INTEGER,
    PRIMARY KEY (game_id, branch, seq)
);

CREATE TABLE snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    branch  INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    state   TEXT NOT NULL,
    PRIMARY KEY (game_id, branch, seq)
);

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER,
    payload    TEXT NOT NULL,
    posted     INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE INDEX outbox_pending ON outbox(posted) WHERE posted = 0;

CREATE TABLE modlog (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    moderator  TEXT NOT NULL,
    what       TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);

CREATE TABLE place_settings (
    place    TEXT PRIMARY KEY,
    settings TEXT NOT NULL DEFAULT '{}'
);
