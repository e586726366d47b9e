"""Checking option values: one rule for every variant's frozen options dataclass.

A field's annotation says what it accepts: ``bool``, ``int`` (with an optional ``minimum`` in the
field's metadata) or ``Literal[...]`` of the allowed values. :func:`check_options` runs from each
options class's ``__post_init__``, so a bad value fails where it is made, in a config file or in a
notebook, with one line naming the option and what is allowed.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any


def _describe(allowed: tuple) -> str:
    return ", ".join(repr(value) if isinstance(value, str) else str(value) for value in allowed)


def check_value(name: str, annotation: Any, value: Any, metadata: Mapping | None = None) -> None:
    """Raise ValueError when ``value`` does not fit ``annotation`` (see the module docstring).

    Booleans and integers are kept apart: ``true`` is not 1, and 1 is not ``true``.
    """
    metadata = metadata or {}
    if typing.get_origin(annotation) is typing.Literal:
        allowed = typing.get_args(annotation)
        # bool is an int in Python: 1 == True, so compare types as well as values
        if not any(type(value) is type(a) and value == a for a in allowed):
            raise ValueError(f"{name}: {value!r} is not allowed; allowed: {_describe(allowed)}")
        return
    if annotation is bool:
        if type(value) is not bool:
            raise ValueError(f"{name}: expected true or false, got {value!r}")
        return
    if annotation is int:
        if type(value) is not int:
            raise ValueError(f"{name}: expected an integer, got {value!r}")
        minimum = metadata.get("minimum")
        if minimum is not None and value < minimum:
            raise ValueError(f"{name}: {value} is below the minimum {minimum}")
        return
    raise TypeError(f"{name}: no checking rule for the annotation {annotation!r}")


def check_options(options: Any) -> None:
    """Check every field of an options dataclass instance against its annotation."""
    hints = typing.get_type_hints(type(options))
    for field in dataclasses.fields(options):
        check_value(field.name, hints[field.name], getattr(options, field.name), field.metadata)


def options_from_mapping(cls: type, values: Mapping[str, Any], where: str = "options"):
    """Build ``cls`` from a mapping (a TOML table): unknown keys are errors, missing keys keep
    their defaults, and each value is checked by the class itself."""
    known = {field.name for field in dataclasses.fields(cls)}
    for key in values:
        if key not in known:
            raise ValueError(f"{where}.{key}: unknown option; allowed: {', '.join(sorted(known))}")
    try:
        return cls(**values)
    except ValueError as error:
        raise ValueError(f"{where}.{error}") from None


def option_annotations(cls: type) -> dict[str, Any]:
    """Field name -> annotation (with ``Literal`` arguments resolved)."""
    return typing.get_type_hints(cls)
