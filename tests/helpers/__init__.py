"""Shared test helpers: fakes, worlds, samples, the scripted model."""
