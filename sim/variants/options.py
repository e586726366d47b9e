"""Options declared once, as data: one :class:`Option` per option of a variant.

A variant lists its options as a tuple of declarations (``sim/variants/<name>/options.py``): name,
kind, what is allowed, default, Chinese rule name, meaning and the rules it changes (their ids in
the rules reference ``docs/rules/<name>.md``). Everything else
comes from that tuple:

* the frozen options class: ``class XOptions(Options, declarations=X_OPTIONS)`` has one field per
  option, in order, checked where it is made (a config file, ``--set``, a notebook), with a
  one-line error naming the option, the value and what is allowed; cross-option rules are the
  class's ``check_together``;
* the int64 ``params`` array the numba kernels read (:func:`encode_params`): one slot per option
  in declaration order, ``length`` slots for a list; its indices come from :func:`param_slots`;
* the ``[options]`` section of a config file with each option's comment (:func:`options_toml`),
  and the options table of the variant's doc (:func:`options_markdown`);
  ``scripts/regenerate_options.py`` rewrites both.

Kinds of option:

* ``flag``: ``true`` / ``false`` (slot: 0 / 1). Booleans and integers are kept apart: ``true`` is
  not 1, and 1 is not ``true``;
* ``integer``: an int with an optional minimum and maximum (slot: the value); a variant gives
  each of its numeric options both, the maxima chosen so that no hand's scores nor a run's sums
  leave int64 (``sim/variants/<name>/bounds.py``);
* ``choice``: one of a few literals, all strings or all ints (slot: the int itself, or the
  string's position in ``allowed``);
* ``int_list``: a fixed number of ints, each with an optional minimum and maximum, such as a
  per-连庄-streak table ``[3, 6, 12, 15]``; a TOML list, kept as a tuple (slots: the values).
"""

from __future__ import annotations

import dataclasses
import difflib
import inspect
import json
import re
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np

RULE_CITATION = re.compile(r"§([a-z][a-z0-9-]*[a-z0-9])")
"""A citation of the rules reference: ``§`` and a heading's anchor id."""
RULES_FIELD = re.compile(r"§[a-z][a-z0-9-]*[a-z0-9](, §[a-z][a-z0-9-]*[a-z0-9])*")

Kind = Literal["flag", "integer", "choice", "int_list"]
KINDS: tuple[str, ...] = typing.get_args(Kind)


@dataclass(frozen=True)
class Option:
    """One option of a variant: everything the class, checks, params, configs and docs need."""

    name: str
    kind: Kind
    default: Any
    chinese: str
    """The rule's Chinese name (``人数``, ``抓鸟``); empty where the source gives none."""
    meaning: str
    """What the option does, in English (``birds flipped after a win: 1, 2 or 4``)."""
    rules: str
    """The rules it changes, by their ids in the rules reference (``§anhua-birds, §anhua-payers``:
    each ``§`` and a heading id of ``docs/rules/<variant>.md``, joined by ", ")."""
    allowed: tuple = ()
    """The literals of a ``choice``."""
    minimum: int | None = None
    maximum: int | None = None
    length: int | None = None
    """The number of values of an ``int_list``."""
    allowed_text: str | None = None
    """What is allowed, in words, where a cross-option rule of the variant narrows it further
    (configs and docs show it instead of the bounds)."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"option {self.name!r}: not a Python identifier")
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r}; allowed: {', '.join(KINDS)}")
        if self.kind == "choice":
            types = {type(value) for value in self.allowed}
            if len(self.allowed) < 2 or not (types == {str} or types == {int}):
                raise ValueError(
                    f"option {self.name}: a choice needs two or more str or int values"
                )
        if self.kind == "int_list" and (self.length is None or self.length < 1):
            raise ValueError(f"option {self.name}: an int_list needs a length of 1 or more")
        if self.kind == "int_list" and isinstance(self.default, list):
            object.__setattr__(self, "default", tuple(self.default))
        if not RULES_FIELD.fullmatch(self.rules):
            raise ValueError(
                f"option {self.name}: rules {self.rules!r}; allowed: rule ids (each § and a "
                "heading id of docs/rules/<variant>.md), joined by ', '"
            )
        self.check(self.default)  # a declaration whose default it rejects is a typo

    @property
    def title(self) -> str:
        """``人数 — players: 4 (四人玩) or 3 (三人玩)``: Chinese rule name and meaning."""
        return f"{self.chinese} — {self.meaning}" if self.chinese else self.meaning

    @property
    def annotation(self) -> Any:
        """The field's type in the options class."""
        if self.kind == "choice":
            return Literal[self.allowed]  # type: ignore[valid-type]
        return {"flag": bool, "integer": int, "int_list": tuple[int, ...]}[self.kind]

    @property
    def slots(self) -> int:
        """How many entries of ``params`` the option takes."""
        return self.length if self.kind == "int_list" else 1

    # ----------------------------------------------------------------------------- checking

    def check(self, value: Any) -> None:
        """Raise ValueError, one line naming the option, when ``value`` is not allowed."""
        name = self.name
        if self.kind == "flag":
            if type(value) is not bool:
                raise ValueError(f"{name}: expected true or false, got {value!r}")
        elif self.kind == "choice":
            # bool is an int in Python: 1 == True, so compare types as well as values
            if not any(type(value) is type(a) and value == a for a in self.allowed):
                allowed = ", ".join(map(repr, self.allowed))
                raise ValueError(f"{name}: {value!r} is not allowed; allowed: {allowed}")
        elif self.kind == "integer":
            self._check_int(name, value)
        else:
            if not isinstance(value, list | tuple) or len(value) != self.length:
                raise ValueError(f"{name}: expected {self.describe()}, got {value!r}")
            for index, item in enumerate(value):
                self._check_int(f"{name}[{index}]", item)

    def _check_int(self, name: str, value: Any) -> None:
        if type(value) is not int:
            raise ValueError(f"{name}: expected an integer, got {value!r}")
        if self.minimum is not None and value < self.minimum:
            wrong = f"below the minimum {self.minimum}"
        elif self.maximum is not None and value > self.maximum:
            wrong = f"above the maximum {self.maximum}"
        else:
            return
        raise ValueError(f"{name}: {value} is {wrong}; allowed: {self.allowed_toml()}")

    def describe(self) -> str:
        """What is allowed, in words (without ``allowed_text``)."""
        if self.kind == "flag":
            return "true or false"
        if self.kind == "choice":
            return " or ".join(toml_value(value) for value in self.allowed)
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            bounds = f" from {low} to {high}"
        elif low is not None or high is not None:
            bounds = f" ≥ {low}" if low is not None else f" ≤ {high}"
        else:
            bounds = ""
        if self.kind == "integer":
            return f"an integer{bounds}"
        return f"a list of {self.length} integers{bounds}"

    def allowed_toml(self) -> str:
        """What is allowed, as a config comment shows it (``3 | 4``, ``true | false``)."""
        if self.allowed_text:
            return self.allowed_text
        if self.kind == "flag":
            return "true | false"
        if self.kind == "choice":
            return " | ".join(toml_value(value) for value in self.allowed)
        return self.describe()

    # ----------------------------------------------------------------------------- params

    def code(self, value: Any) -> int:
        """The int a ``choice`` value is stored as: an int itself, a string its position."""
        return value if type(value) is int else self.allowed.index(value)

    def encode(self, value: Any) -> tuple[int, ...]:
        """The option's ``params`` slots for ``value``."""
        if self.kind == "int_list":
            return tuple(value)
        if self.kind == "choice":
            return (self.code(value),)
        return (int(value),)

    def decode(self, slots: Sequence[int]) -> Any:
        """The value ``encode`` made ``slots`` from."""
        if self.kind == "int_list":
            return tuple(int(slot) for slot in slots)
        (slot,) = slots
        if self.kind == "flag":
            return bool(slot)
        if self.kind == "choice":
            codes = [self.code(value) for value in self.allowed]
            return self.allowed[codes.index(int(slot))]
        return int(slot)


# ------------------------------------------------------------------------------ declarations


def flag(name: str, default: bool, chinese: str, meaning: str, rules: str) -> Option:
    return Option(name, "flag", default, chinese, meaning, rules)


def choice(
    name: str, allowed: tuple, default: Any, chinese: str, meaning: str, rules: str
) -> Option:
    return Option(name, "choice", default, chinese, meaning, rules, allowed=tuple(allowed))


def integer(
    name: str,
    default: int,
    chinese: str,
    meaning: str,
    rules: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    allowed_text: str | None = None,
) -> Option:
    return Option(
        name,
        "integer",
        default,
        chinese,
        meaning,
        rules,
        minimum=minimum,
        maximum=maximum,
        allowed_text=allowed_text,
    )


def int_list(
    name: str,
    default: Sequence[int],
    chinese: str,
    meaning: str,
    rules: str,
    *,
    length: int,
    minimum: int | None = None,
    maximum: int | None = None,
) -> Option:
    return Option(
        name,
        "int_list",
        tuple(default),
        chinese,
        meaning,
        rules,
        minimum=minimum,
        maximum=maximum,
        length=length,
    )


def by_name(declarations: Iterable[Option]) -> dict[str, Option]:
    """Name -> declaration; two declarations of one name are an error."""
    table: dict[str, Option] = {}
    for option in declarations:
        if option.name in table:
            raise ValueError(f"option {option.name}: declared twice")
        table[option.name] = option
    return table


# ------------------------------------------------------------------------------ the class


class Options:
    """Base of a variant's frozen options class, whose fields come from its declarations::

        class AnhuaOptions(Options, declarations=ANHUA_OPTIONS):
            def check_together(self) -> None: ...  # rules between options

    Each value is checked when the object is made; list values are kept as tuples.
    """

    DECLARATIONS: ClassVar[tuple[Option, ...]] = ()

    def __init_subclass__(cls, declarations: Iterable[Option], **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if inspect.get_annotations(cls):
            raise TypeError(f"{cls.__name__}: fields come from the declarations, not annotations")
        cls.DECLARATIONS = tuple(by_name(declarations).values())
        cls.__annotations__ = {option.name: option.annotation for option in cls.DECLARATIONS}
        for option in cls.DECLARATIONS:
            setattr(cls, option.name, option.default)
        dataclasses.dataclass(frozen=True)(cls)

    def __post_init__(self) -> None:
        for option in self.DECLARATIONS:
            value = getattr(self, option.name)
            option.check(value)
            if option.kind == "int_list":
                object.__setattr__(self, option.name, tuple(value))
        self.check_together()

    def check_together(self) -> None:
        """Rules between options (a variant's own); ValueError, one line naming the option."""

    def params(self) -> np.ndarray:
        """The int64 array the variant's kernels read (:func:`encode_params`)."""
        return encode_params(self.DECLARATIONS, self)


def unknown_name(
    shown: str, what: str, name: Any, known: Iterable[str], value: bool = False
) -> ValueError:
    """The one-line error for an unknown ``name`` (an option, a setting, a key): ``shown``
    names it (and the name itself with ``value``: an unknown variant, agent, section), then
    every allowed name, then ``did you mean`` the closest ones."""
    known = list(known)
    if not shown.isprintable():  # a key with a line break or a control character
        shown = shown.encode("unicode_escape").decode("ascii")
    close = difflib.get_close_matches(str(name), known, n=2, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    given = f" {name!r}" if value else ""
    return ValueError(f"{shown}: unknown {what}{given}; allowed: {', '.join(known)}{hint}")


def options_from_mapping(cls: type, values: Mapping[str, Any], where: str = "options"):
    """Build ``cls`` from a mapping (a TOML table, ``--set`` values): unknown keys are errors
    (with a did-you-mean), missing keys keep their defaults, and each value is checked by the
    class itself."""
    known = [option.name for option in cls.DECLARATIONS]
    for key in values:
        if key not in known:
            raise unknown_name(f"{where}.{key}", "option", key, sorted(known))
    try:
        return cls(**values)
    except ValueError as error:
        raise ValueError(f"{where}.{error}") from None


def option_values(options: Any) -> dict[str, Any]:
    """Option -> value of an options object, lists as lists (plain JSON and TOML values)."""
    return {option.name: _plain(getattr(options, option.name)) for option in options.DECLARATIONS}


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# ------------------------------------------------------------------------------ params


def param_slots(declarations: Iterable[Option]) -> dict[str, int]:
    """Option -> its first slot in ``params``: declaration order, ``slots`` entries each.

    The kernels read these (and choice codes) as compile-time constants, named ``P_*`` by the
    variant's ``options.py``: an edit there recompiles the variant, its folder's sources keying
    its cache. This module is not part of that key, so a change to the layout or to
    :meth:`Option.code` needs the variant's cache cleared (the variant's tests pin the values)."""
    slots, first = {}, 0
    for option in declarations:
        slots[option.name] = first
        first += option.slots
    return slots


def param_count(declarations: Iterable[Option]) -> int:
    return sum(option.slots for option in declarations)


def encode_params(declarations: Sequence[Option], options: Any) -> np.ndarray:
    """The int64 ``params`` array of an options object."""
    params = np.zeros(param_count(declarations), np.int64)
    for option, first in zip(declarations, param_slots(declarations).values(), strict=True):
        params[first : first + option.slots] = option.encode(getattr(options, option.name))
    return params


def decode_params(declarations: Sequence[Option], params: np.ndarray) -> dict[str, Any]:
    """Option -> value, read back from a ``params`` array."""
    firsts = param_slots(declarations)
    return {
        option.name: option.decode(params[firsts[option.name] : firsts[option.name] + option.slots])
        for option in declarations
    }


# ------------------------------------------------------------------------------ configs and docs


def toml_value(value: Any) -> str:
    """A value as TOML writes it: ``true``, ``4``, ``"seven_kings"``, ``[3, 6, 12, 15]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def options_toml(declarations: Sequence[Option], values: Mapping[str, Any] | None = None) -> str:
    """The ``[options]`` section of a config file: per option a comment line (Chinese rule name,
    meaning, the rules it changes) and ``name = value  # allowed: ...``, noting values that differ
    from the default. ``values`` (option -> value) defaults to every default."""
    values = values or {}
    lines = ["[options]"]
    for option in declarations:
        value = values.get(option.name, option.default)
        changed = _plain(value) != _plain(option.default)
        lines.append(f"# {option.title} [{option.rules}]")
        lines.append(
            f"{option.name} = {toml_value(value)}  # allowed: {option.allowed_toml()}"
            + ("  # changed from the default" if changed else "")
        )
    return "\n".join(lines) + "\n"


_SECTION_HEADER = re.compile(r"^\s*\[")


def replace_options_section(text: str, declarations: Sequence[Option], values: Mapping) -> str:
    """A config file's text with its ``[options]`` section (up to the next table header, or the
    end) written by :func:`options_toml` for ``values``; without one, the section is appended."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.strip() == "[options]"), None)
    section = options_toml(declarations, values)
    if start is None:
        return text.rstrip("\n") + "\n\n" + section
    end = next(
        (i for i in range(start + 1, len(lines)) if _SECTION_HEADER.match(lines[i])), len(lines)
    )
    after = "".join(lines[end:])
    return "".join(lines[:start]) + section + ("\n" + after if after else "")


def options_markdown(declarations: Sequence[Option]) -> str:
    """The options table of a variant's doc (markdown)."""

    def literal(value: Any) -> str:
        return f"`{value}`" if isinstance(value, str) else f"`{toml_value(value)}`"

    rows = [
        "| Option | Rule 规则 | Allowed | Default | Rules |",
        "|---|---|---|---|---|",
    ]
    for option in declarations:
        if option.kind == "choice":
            allowed = ", ".join(literal(value) for value in option.allowed)
        elif option.kind == "flag":
            allowed = "`true`, `false`"
        else:
            allowed = option.allowed_text or option.describe()
        rows.append(
            f"| `{option.name}` | {option.title} | {allowed} | {literal(option.default)} "
            f"| {_rule_links(option.rules)} |"
        )
    return "\n".join(rows) + "\n"


def _rule_links(rules: str) -> str:
    """``§<id>`` citations as links to their headings on the same page."""
    return RULE_CITATION.sub(lambda m: f"[§{m.group(1)}](#{m.group(1)})", rules)


DOC_TABLE_BEGIN = "<!-- options table: generated by scripts/regenerate_options.py; do not edit -->"
DOC_TABLE_END = "<!-- end of the options table -->"


def replace_doc_table(text: str, declarations: Sequence[Option]) -> str:
    """A doc's text with the block between ``DOC_TABLE_BEGIN`` and ``DOC_TABLE_END`` replaced by
    :func:`options_markdown`; ValueError when the doc has no such block."""
    begin, end = text.find(DOC_TABLE_BEGIN), text.find(DOC_TABLE_END)
    if begin < 0 or end < begin:
        raise ValueError(f"no options table block ({DOC_TABLE_BEGIN} ... {DOC_TABLE_END})")
    head = text[: begin + len(DOC_TABLE_BEGIN)]
    return head + "\n" + options_markdown(declarations) + text[end:]
