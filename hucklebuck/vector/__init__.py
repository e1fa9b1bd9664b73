"""The batched lane for learning agents: many games stepped in one call."""
