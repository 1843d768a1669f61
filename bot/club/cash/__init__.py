"""The club's cash box (docs/club.md): its book (the ledger of lines, `storage.py`), the treasurer's entries, fines,
fees, dues, expenses, attendance and exports."""
