"""The TV page at the lanes (docs/tv.md): a web page per chat, behind an unguessable link, that follows the
running Hausnummern game live — links (the tokens), view (what the page shows), feed (who watches, the
nudge), pgnotify (across processes on PostgreSQL), server (aiohttp, server-sent events), command (/tv)."""
