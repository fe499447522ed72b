"""Terminal front-end: play any game against the AI through the real MatchService, no Discord."""
