"""The club's cash box, pure: the ledger (`ledger.py`) and its CSV export (`export.py`)."""
