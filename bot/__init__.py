"""The bot around the pure core: the App and its move runner (app/), the games' bot-side halves (games/), texts,
storage, the scheduler, the solver's resources, the club wing, the TV page, a player's data, platforms and process."""
