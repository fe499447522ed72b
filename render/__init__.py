"""Pillow renderers. They receive engine *views* only (never full state), so an image cannot
leak hidden information."""
