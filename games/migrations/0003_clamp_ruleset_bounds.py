"""Bring stored rulesets within the bounds the engine now enforces.

The table form used to accept an initial-meld minimum up to 1000 (even with a single-set
meld, where no set is worth more than 91 at face value) and penalty draws up to 10. The
engine now refuses such rulesets, so a table or game stored with one could no longer be
loaded. Each value is lowered to its bound, which is the closest rule that can be met;
nothing else changes. The bounds are written out here, as they were when this ran.
"""

from typing import Any

from django.db import migrations

MAX_INITIAL_MELD = 150
MAX_PENALTY_DRAW = 3
LARGEST_SET_VALUE = {"face": 91, "house": 95}


def clamp(rules: dict[str, Any] | None) -> bool:
    """Lower the out-of-bound values of ``rules`` in place; True when one changed."""
    if not isinstance(rules, dict):
        return False
    changed = False
    for option in ("failed_turn_penalty_draw", "overtime_penalty_draw"):
        if isinstance(rules.get(option), int) and rules[option] > MAX_PENALTY_DRAW:
            rules[option] = MAX_PENALTY_DRAW
            changed = True
    meld_min = rules.get("initial_meld_min")
    if isinstance(meld_min, int):
        bound = MAX_INITIAL_MELD
        if rules.get("initial_meld_single_set"):
            bound = LARGEST_SET_VALUE.get(rules.get("meld_values", "face"), 91)
        if meld_min > bound:
            rules["initial_meld_min"] = bound
            changed = True
    return changed


def forwards(apps: Any, schema_editor: Any) -> None:
    Table = apps.get_model("games", "Table")
    Game = apps.get_model("games", "Game")
    for table in Table.objects.iterator():
        # Options hold only what differs from the preset: they are judged together with
        # the resolved ruleset (its single-set and value settings), and keep their keys.
        options = table.options or {}
        resolved = {**(table.ruleset or {}), **options}
        dirty = clamp(resolved)
        if dirty:
            table.options = {key: resolved[key] for key in options}
        dirty = clamp(table.ruleset) or dirty
        dirty = clamp((table.round or {}).get("ruleset")) or dirty
        if dirty:
            table.save(update_fields=["options", "ruleset", "round"])
    for game in Game.objects.iterator():
        state_rules = (game.state or {}).get("ruleset")
        if any([clamp(game.ruleset), clamp(state_rules)]):
            game.save(update_fields=["ruleset", "state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0002_correspondence")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
