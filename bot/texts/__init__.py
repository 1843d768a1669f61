"""Texts: catalogs and plural forms, localising messages per recipient, command and option words."""
