"""The computer player's resources beside the pure solver: its files, the word lists, heavy work off the loop."""
