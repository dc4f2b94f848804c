"""Shared pytest set-up: hypothesis without deadlines (shared, noisy machines) and a fixed budget.

CAPPLAN_HYPOTHESIS_PROFILE=quick runs fewer examples (scripts/test-python uses it for its second
pass, against the pip-installed copy, which only has to show the installed package works).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "capplan",
    max_examples=200,
    deadline=None,
    database=None,  # no .hypothesis/ directory in the source tree
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("quick", parent=settings.get_profile("capplan"), max_examples=20)
settings.load_profile(os.environ.get("CAPPLAN_HYPOTHESIS_PROFILE", "capplan"))
