"""Files the help of ``mjsim run`` and ``mjsim sweep`` names in its examples: the first config
file and the first sweep file of this checkout's ``configs/`` (by name), and an option of each
to change, so that every example runs as written. Those modules name no variant
(``tests/test_generic_modules.py``), so the names are read from the files here; placeholders
stand in where the package is installed without its ``configs/`` folder."""

from __future__ import annotations

import tomllib
from pathlib import Path

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
"""The checkout's config files (examples name them relative to the checkout: ``configs/...``)."""


def _first(pattern: str) -> Path | None:
    found = sorted(CONFIGS.glob(pattern))
    return found[0] if found else None


def _flipped_option(config: Path, axes=()) -> str | None:
    """``name=value`` of the first true/false option of ``config`` not in ``axes``, the other
    way round from the file."""
    try:
        options = tomllib.loads(config.read_text(encoding="utf-8")).get("options", {})
    except (OSError, tomllib.TOMLDecodeError):
        return None
    for name, value in options.items():
        if isinstance(value, bool) and name not in axes:
            return f"{name}={'false' if value else 'true'}"
    return None


def config_example() -> tuple[str, str]:
    """A config file to run (``configs/...toml``) and an option change it takes (``--set``)."""
    config = _first("*.toml")
    if config is None:
        return "configs/NAME.toml", "OPTION=VALUE"
    return f"configs/{config.name}", _flipped_option(config) or "run.hands_per_session=4"


def sweep_example() -> tuple[str, str]:
    """A sweep file to play (``configs/sweeps/...toml``) and an option change its cells take
    (``--set``: an option of its base config that is not an axis)."""
    sweep = _first("sweeps/*.toml")
    if sweep is None:
        return "configs/sweeps/NAME.toml", "OPTION=VALUE"
    try:
        document = tomllib.loads(sweep.read_text(encoding="utf-8"))
        base, axes = sweep.parent / document["base"], document.get("axes", {})
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError):
        return f"configs/sweeps/{sweep.name}", "run.hands_per_session=4"
    axes = {key.rpartition(".")[2] for key in axes}
    return f"configs/sweeps/{sweep.name}", _flipped_option(base, axes) or "run.hands_per_session=4"
