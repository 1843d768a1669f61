"""The games' bot-side halves: each game's plugin (`plugin.GamePlugin[State]`: its core game, commands,
hooks into the move runner and storage), the commands every game shares (`shared`), and the one
registry that lists them (`registry`)."""
