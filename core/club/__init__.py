"""The club's pure side (docs/club.md): roles and roster, what a game reports (`records.py`), evenings,
seasons, summaries, charts and the cash box's ledger."""
