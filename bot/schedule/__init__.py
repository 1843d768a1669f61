"""The bot's own posts at a set time: the scheduler, the games' jobs, each chat's time zone."""
