"""Search keys and the colour states they hold.

A search state is one integer. Key layout (low bits first): jokers laid (2 bits),
jokers in meld sets (2 bits), designated-set status (2 bits), the four colour states
(14 bits each: an id given by the :class:`Registry`), the jokers the lanes of the
current number will need later (4 bits), the group tally of the current number
(18 bits), the meld counter.
"""

from __future__ import annotations

from engine.solver._budget import Meter
from engine.solver._lanes import dominates, rank, signature

J_SH, JM_SH, D_SH, C_SH, CB = 0, 2, 4, 6, 14
DEF_SH = C_SH + 4 * CB
ACC_SH = DEF_SH + 4
M_SH = ACC_SH + 18
CMASK = (1 << CB) - 1
AMASK = (1 << 18) - 1
LOW = (1 << C_SH) - 1


class Registry:
    """Small numbers for the colour states one search meets, and their dominance.

    States are compared only within their *signature* (see
    :func:`~engine.solver._lanes.signature`); ``up[i]`` holds the states that dominate
    state ``i``.
    """

    def __init__(self) -> None:
        self.states: list[tuple[int, ...]] = [()]
        self.ids: dict[tuple[int, ...], int] = {(): 0}
        self.ranks: list[int] = [0]
        self.sigs: list[int] = [0]
        self.up: list[set[int]] = [{0}]
        self._sig_ids: dict[tuple[int, ...], int] = {(): 0}
        self._members: list[list[int]] = [[0]]

    def id(self, state: tuple[int, ...]) -> int:
        found = self.ids.get(state)
        if found is None:
            found = len(self.states)
            if found > CMASK:
                raise OverflowError("too many distinct colour states")
            self.ids[state] = found
            self.states.append(state)
            self.ranks.append(rank(state))
            sig = self._sig_ids.setdefault(signature(state), len(self._sig_ids))
            if sig == len(self._members):
                self._members.append([])
            self.sigs.append(sig)
            up = {found}
            for other in self._members[sig]:
                if dominates(self.states[other], state):
                    up.add(other)
                if dominates(state, self.states[other]):
                    self.up[other].add(found)
            self.up.append(up)
            self._members[sig].append(found)
        return found

    def rank(self, key: int) -> int:
        ranks = self.ranks
        return (
            ranks[key >> C_SH & CMASK]
            + ranks[key >> (C_SH + CB) & CMASK]
            + ranks[key >> (C_SH + 2 * CB) & CMASK]
            + ranks[key >> (C_SH + 3 * CB) & CMASK]
        )

    def dominated(self, key: int, score: int, others: dict[int, int]) -> bool:
        """Is ``key`` (with ``score``) dominated by one of ``others``? (A state dominated
        by a state that led nowhere leads nowhere either.)"""
        a, b, c, d = colour_ids(key)
        sigs, up = self.sigs, self.up
        group = (key & LOW, sigs[a], sigs[b], sigs[c], sigs[d])
        meld = key >> M_SH
        for other, other_score in others.items():
            oa, ob, oc, od = colour_ids(other)
            if (
                other_score >= score
                and (other & LOW, sigs[oa], sigs[ob], sigs[oc], sigs[od]) == group
                and other >> M_SH >= meld
                and oa in up[a]
                and ob in up[b]
                and oc in up[c]
                and od in up[d]
            ):
                return True
        return False

    def prune(self, states: dict[int, int], meter: Meter) -> dict[int, int]:
        """Drop states dominated by another with the same low bits and signatures,
        meld and score at least (compared with at most ``_PRUNE_WIDTH`` kept states).
        Each state compared is a step of ``meter``."""
        order = sorted(
            states.items(),
            key=lambda item: (-self.rank(item[0]), -(item[0] >> M_SH), -item[1]),
        )
        kept: dict[tuple[int, ...], list[tuple[int, int, int, int, int, int]]] = {}
        result: dict[int, int] = {}
        sigs, up = self.sigs, self.up
        for key, score in meter.metered(order, len(order)):
            a, b, c, d = colour_ids(key)
            meld = key >> M_SH
            group = kept.setdefault((key & LOW, sigs[a], sigs[b], sigs[c], sigs[d]), [])
            ua, ub, uc, ud = up[a], up[b], up[c], up[d]
            for qa, qb, qc, qd, other_meld, other_score in group[:_PRUNE_WIDTH]:
                if (
                    other_score >= score
                    and other_meld >= meld
                    and qa in ua
                    and qb in ub
                    and qc in uc
                    and qd in ud
                ):
                    break
            else:
                group.append((a, b, c, d, meld, score))
                result[key] = score
        return result


_PRUNE_WIDTH = 96


def colour_ids(key: int) -> tuple[int, int, int, int]:
    return (
        key >> C_SH & CMASK,
        key >> (C_SH + CB) & CMASK,
        key >> (C_SH + 2 * CB) & CMASK,
        key >> (C_SH + 3 * CB) & CMASK,
    )
