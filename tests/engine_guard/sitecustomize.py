"""Run by every Python process a quick-run test starts (``tests/conftest.py`` puts this folder
first on ``PYTHONPATH``): while the test is not marked ``engine`` (``MJSIM_ENGINE_GUARD=1``)
the process may not play a variant's hands either (``mjsim_engine_guard``)."""

import os

if os.environ.get("MJSIM_ENGINE_GUARD") == "1":
    import mjsim_engine_guard

    mjsim_engine_guard.install(allowed=False)
