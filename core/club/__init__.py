"""The club's own pure rules (roles, the roster): who may act for a club, decided by role only."""
