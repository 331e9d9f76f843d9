"""The Rummikub rules engine: pure Python, standard library only.

Tiles and notation (:mod:`engine.tiles`), rulesets (:mod:`engine.ruleset`), sets and
their readings (:mod:`engine.sets`), turn verdicts (:mod:`engine.verdict`), scoring
(:mod:`engine.scoring`), game flow (:mod:`engine.game`), the turn clock (time per turn,
time banks, pauses: :mod:`engine.clock`), the exact solver (:mod:`engine.solver`), bots
(:mod:`engine.bots`) and the JSON line protocol (``python -m engine``).
"""
