"""The quick run's guard against playing a variant's hands (``pytest -m "not slow"`` compiles
no engine; tests that play one are marked ``engine``). Plain Python, no pytest: the conftest
installs it in the test processes, ``sitecustomize.py`` beside it in every Python process a
test starts while ``MJSIM_ENGINE_GUARD=1`` (``mjsim run`` as a program included)."""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys

MODULE = "sim.variants.session"
ENTRIES = {"SessionPlay": ("play_records", "replay_hand"), "GameChecks": ("check_games",)}
"""The methods through which Python plays or checks a variant's hands: each needs the variant's
engine compiled."""


class EngineGuard:
    """While ``allowed`` is false, a call of an ``ENTRIES`` method raises, saying to mark the
    test ``engine``."""

    allowed = True

    @classmethod
    def patch(cls, session) -> None:
        for class_name, methods in ENTRIES.items():
            owner = getattr(session, class_name)
            for name in methods:
                setattr(owner, name, cls._guarded(getattr(owner, name)))

    @classmethod
    def _guarded(cls, method):
        def guarded(self, *args, **kwargs):
            if not cls.allowed:
                raise RuntimeError(
                    f"this test plays a variant's engine ({method.__qualname__}): mark it "
                    "@pytest.mark.engine, or play the toy variant (tests/toy_variant)"
                )
            return method(self, *args, **kwargs)

        return guarded


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Patches ``MODULE`` when it is first imported, so that a process that never plays imports
    nothing more for the guard (``tests/test_lazy_imports.py`` counts what a command imports)."""

    def find_spec(self, name, path, target=None):
        if name != MODULE:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        loader = spec.loader
        run_module = loader.exec_module

        def exec_module(module):
            run_module(module)
            EngineGuard.patch(module)

        loader.exec_module = exec_module
        return spec


def install(allowed: bool = True) -> None:
    """Guard the entries from now on (at once if the module is loaded, else at its import)."""
    EngineGuard.allowed = allowed
    if MODULE in sys.modules:
        EngineGuard.patch(sys.modules[MODULE])
    else:
        sys.meta_path.insert(0, _PatchOnImport())
