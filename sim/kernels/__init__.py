"""Numba kernels. Every ``@njit`` of mjsim lives in this package.

Kernels take plain numpy arrays and scalars, fill output arrays, and do no validation: the
friendly Python layer (``sim.hand``, ``sim.wall``, ...) checks its input once and then calls them.
This package imports numpy and numba only.
"""
