"""The games' bot-side halves: each game's commands and its hooks into the move runner
(bot/services.py), and the commands every game shares (`shared`). The registry lists them."""
