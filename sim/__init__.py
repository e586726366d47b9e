"""mjsim: Monte Carlo simulation and strategy analysis for Chinese regional mahjong.

The public modules: :mod:`sim.hand` (evaluator), :mod:`sim.play` (hands in memory),
:mod:`sim.plots` (figures) and :mod:`sim.analysis` (statistics of runs). Below them, layers
that import downward: ``sim.kernels`` (numba) and ``sim.core`` (tiles, walls, tables),
``sim.variants``, ``sim.running`` (running a config), then ``sim.studies``, ``sim.analysis``
and ``sim.report``, and ``sim.cli`` on top.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mjsim")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
