"""The App and its move runner: an inbound routed to its game, every move saved and presented one way."""
