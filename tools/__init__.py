"""Tools a developer runs by hand to rebuild shipped data (see each module's docstring)."""
