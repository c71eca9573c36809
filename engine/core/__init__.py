"""Pieces shared by every game: hexes, maps, movement, odds tables, dice, the protocol."""
