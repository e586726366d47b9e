"""The names a report gives things: common labels here, the rest from the variant's registry entry.

Seats, roles, the win kinds most games share and pattern points are labelled here. Everything a
particular game adds (its title, option defaults and rule names, its own win kinds and points
sources, its named patterns, and a sentence on its tiers, scores and points) comes from the
:class:`~sim.variants.Variant` the run's manifest names, through :func:`variant_labels`. A
variant this version of mjsim does not know is shown by its plain name and raw column values.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..variants import VARIANT_NAMES, ReportText, get_variant

WIN_KIND_LABELS = {
    "self_draw": "self-draw 自摸",
    "discard": "on a discard 点炮",
    "rob_kong": "robbing a kong 抢杠胡",
    "kong_bloom": "kong bloom 杠上花",
    "kong_cannon": "kong cannon 杠上炮",
    "none": "exhaustive draw 荒庄",
}
"""Win kinds common to the games; a variant labels its own (``ReportText.win_kind_labels``)."""
ROLE_LABELS = {
    "all": "all seats 全体",
    "dealer": "dealer 庄家",
    "non_dealer": "non-dealer 闲家",
    "difference": "difference 差",
}
SOURCE_LABELS = {"pattern": "pattern points 牌型分"}
"""Points sources common to the games; a variant labels its own
(``ReportText.points_source_labels``)."""


@dataclass(frozen=True)
class VariantLabels:
    """What a report shows of one variant (see the module's docstring)."""

    title: str | None
    """The variant's title; its plain name when unknown, ``None`` when the manifest has none."""
    defaults: dict
    """Option -> default value; empty for an unknown variant."""
    option_titles: dict[str, str]
    """Option -> its Chinese rule name and meaning."""
    text: ReportText

    def win_kind(self, kind: str) -> str:
        return self.text.win_kind_labels.get(kind) or WIN_KIND_LABELS.get(kind, kind)

    def points_source(self, source: str) -> str:
        return self.text.points_source_labels.get(source) or SOURCE_LABELS.get(source, source)


def variant_labels(variant: str | None) -> VariantLabels:
    """The labels of ``variant`` (a manifest's ``variant``) from the variant registry."""
    if variant not in VARIANT_NAMES:
        return VariantLabels(variant, {}, {}, ReportText())
    spec = get_variant(variant)
    default = spec.options_class()
    defaults = {f.name: getattr(default, f.name) for f in fields(spec.options_class)}
    return VariantLabels(spec.title, defaults, dict(spec.option_titles), spec.report)
