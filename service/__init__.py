"""The match service: one per process; loads, locks, acts, persists and publishes matches.

Front-ends use ``service.matches.MatchService`` (and ``service.scheduler.Scheduler`` to drive
deadlines); everything they receive is plain data from ``service.models``; every refusal is a
``service.errors.UserError`` carrying a translatable message.
"""
