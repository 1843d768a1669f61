"""What keeps a group coming back that is no game's own (docs/retention.md): the chat's settings for the
bot's own posts and its noise (`settings`), the commands /posts and /pings (`commands`), the weekly table
post (`weekly`), the tables by period (`periods`), the noise filter (`noise`)."""
