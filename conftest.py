"""Settings shared by every test run, wherever pytest is started from."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Database-backed property tests are slow per example; time limits would only add noise.
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
# CI: the same examples on every run, so a red build can be reproduced.
settings.register_profile(
    "ci", parent=settings.get_profile("dev"), derandomize=True, print_blob=True
)
# Longer property runs by hand: HYPOTHESIS_PROFILE=long (the engine tests also scale up).
settings.register_profile("long", parent=settings.get_profile("dev"))
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)
