"""Studies built on runs: sweeps over options (``sweep``), agents compared on duplicate deals
(``compare``) and agent parameters tuned against a field (``tune``). Imports ``sim.running``,
``sim.variants``, ``sim.analysis`` and ``sim.plots``; only ``sim.cli`` imports it."""
