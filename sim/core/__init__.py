"""Tiles, walls and the evaluator's tables: tile ids and notation (``tiles``), seeded walls and
deals (``wall``), and the hand tables built, cached and loaded for the evaluator (``tables``).
Imports numpy and, for building the tables, the numba builder of ``sim.kernels.tables``."""
