"""Shared pytest set-up: hypothesis without deadlines (shared, noisy machines) and a fixed budget."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "capplan",
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("capplan")
