"""What keeps a group coming back that is no game's own (docs/retention.md): the chat's settings for the
bot's own posts and its noise (`settings`), the commands /posts and /pings (`commands`), when a post is due
(`schedule`), the tables by period and the weekly table post (`periods`, `tables`), the noise filter (`noise`)."""
