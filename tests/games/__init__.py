"""The tests of each game, one folder per game (tests/games/<kind>/)."""
