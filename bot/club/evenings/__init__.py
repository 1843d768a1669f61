"""The club evenings (/termin): their storage and the command."""
