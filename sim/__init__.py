"""mjsim: Monte Carlo simulation and strategy analysis for Chinese regional mahjong.

Modules: :mod:`sim.tiles` (notation), :mod:`sim.hand` (evaluator), :mod:`sim.wall` (dealing).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mjsim")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
