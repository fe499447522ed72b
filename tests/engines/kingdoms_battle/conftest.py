"""Fixtures of the 鬪三國 tests (the fixed-dice queue lives in kb_testkit)."""

from kb_testkit import dice  # noqa: F401
