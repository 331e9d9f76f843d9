"""A table's rules in players' words, from the engine's description of the options.

The game page and the table page show the preset's name, the house rules (the options
that differ from the preset, beside the preset's own value) and, folded away, every rule
by group with the house rules marked. Nothing here is secret: a ruleset is the same for
everyone at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import groups
from engine.ruleset import Ruleset
from games.models import Preset


@dataclass(frozen=True)
class RuleLine:
    """One option as a page shows it."""

    name: str
    label: str
    value: str
    """The table's value, in words."""
    preset_value: str
    """The preset's value, in words (the same as ``value`` unless a house rule)."""
    help: str
    is_house_rule: bool
    """The table's value differs from the preset's."""


@dataclass(frozen=True)
class RuleGroup:
    title: str
    rules: tuple[RuleLine, ...]


@dataclass(frozen=True)
class RulesSummary:
    preset: str
    """The preset's name for players."""
    groups: tuple[RuleGroup, ...]

    @property
    def house_rules(self) -> tuple[RuleLine, ...]:
        """The options that differ from the preset, in the order of the groups."""
        return tuple(rule for group in self.groups for rule in group.rules if rule.is_house_rule)


def rules_summary(ruleset: Ruleset, preset: str) -> RulesSummary:
    """Every house-rule option of ``ruleset`` (a table's, whose rules started from
    ``preset``), grouped as the description groups them."""
    values = ruleset.to_dict()
    return RulesSummary(
        preset=Preset(preset).label if preset in Preset.values else preset,
        groups=tuple(
            RuleGroup(
                title,
                tuple(
                    RuleLine(
                        name=option.name,
                        label=option.label,
                        value=option.value_label(values[option.name]),
                        preset_value=option.value_label(option.default_in(preset)),
                        help=option.help,
                        is_house_rule=values[option.name] != option.default_in(preset),
                    )
                    for option in options
                ),
            )
            for title, options in groups()
        ),
    )
