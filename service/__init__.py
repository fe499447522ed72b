"""The match service: one per process; loads, locks, acts, persists and publishes matches."""
