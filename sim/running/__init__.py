"""Running a config: configs and agents, the runner and its backends, output directories,
stopping, caches, compile-ahead, the records' frames, a run's replay and the benchmark.
Imports ``sim.core``, ``sim.kernels`` and ``sim.variants``; nothing above (studies, analysis,
report, cli) is imported here."""
