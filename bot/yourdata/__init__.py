"""A player's own data: what the bot keeps of them (`/mydata`) and erasing it (`/forgetme`).

Where a table keeps a chat user's id or name is declared once (bot/yourdata/declare.py): the shared
tables in `shared()`, a game's own on its plugin (`GamePlugin.personal`). The export and the erasure
read only those declarations; docs/retention.md ("Your data") says what is kept and what is erased."""
