"""``view(state, player)``: the JSON-ready picture one player may see (docs/rules.md §6)."""

from __future__ import annotations

from typing import Any

from .cards import card_text
from .engine import legal_moves, refusals
from .moves import move_to_json
from .roundscore import expedition_scores, score_round
from .skills import RADIO_PEEK
from .state import LogEntry, State

VIEW_FORMAT = 1


def _log_entry(entry: LogEntry, viewer: int, jobs_revealed: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"player": entry.player, "type": entry.type}
    if entry.type == "pick-job":
        out["job"] = entry.detail if jobs_revealed or entry.player == viewer else None
    elif entry.type == "sabotage":
        out["colour"] = entry.detail
    elif entry.type == "mixup":
        out["mixup"] = entry.detail
    elif entry.type in ("play", "discard"):
        out["card"] = card_text(entry.card) if entry.card is not None else None
    elif entry.type == "draw":
        out["source"] = entry.detail
        visible = entry.detail != "deck" or entry.player == viewer
        out["card"] = card_text(entry.card) if visible and entry.card is not None else None
    return out


def deck_peek(state: State, player: int) -> list[str]:
    """The deck cards (top first) ``player`` may see now: Scout shows 1, Radio up to 2."""
    if state.to_act != player or state.phase not in ("play", "draw"):
        return []
    count = RADIO_PEEK if "radio" in state.skills_used else 0
    if state.sees_deck_top(player):
        count = max(count, 1)
    return [card_text(c) for c in reversed(state.deck[len(state.deck) - count:])] if count else []


def view(state: State, player: int) -> dict[str, Any]:
    """What ``player`` (0 or 1) may see, as JSON-ready data (see docs/architecture.md).

    The opponent's hand and the deck are counts; objectives stay secret until scoring; job offers
    and Radio/Scout peeks go to their owner only. ``legal_moves`` is filled when this player is
    to act (or anyone may act, at round end); ``refusals`` then says why the other plays and
    draws are not offered (``engine.refusals``).
    """
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    opponent = 1 - player
    colours = state.colours
    scored = state.phase in ("round-end", "match-end")
    jobs_revealed = state.jobs[0] is not None and state.jobs[1] is not None
    jobs = [j if jobs_revealed or p == player else None for p, j in enumerate(state.jobs)]
    running = []
    for p in (0, 1):
        per = expedition_scores(state, p)
        entry: dict[str, int] = {c: s.score for c, s in zip(colours, per)}
        entry["total"] = sum(s.score for s in per)
        running.append(entry)
    objectives: list[list[str] | None] = [list(state.objectives[0]), list(state.objectives[1])]
    if state.options.objectives and not scored:
        objectives[opponent] = None
    acting = state.to_act == player or (state.to_act is None and state.phase == "round-end")
    return {
        "format": VIEW_FORMAT,
        "player": player,
        "names": list(state.names),
        "options": state.options.to_json(),
        "colours": list(colours),
        "round": state.round,
        "starting_player": state.starting_player,
        "phase": state.phase,
        "to_act": state.to_act,
        "hand": [card_text(c) for c in state.hands[player]],
        "hand_counts": [len(state.hands[0]), len(state.hands[1])],
        "deck_count": len(state.deck),
        "deck_peek": deck_peek(state, player),
        "discards": {
            c: {"top": card_text(pile[-1]) if pile else None, "size": len(pile)}
            for c, pile in zip(colours, state.discards)
        },
        "expeditions": [
            {c: [card_text(x) for x in e] for c, e in zip(colours, state.expeditions[p])}
            for p in (0, 1)
        ],
        "scores": running,
        "round_scores": [list(r) for r in state.round_scores],
        "totals": list(state.totals),
        "charges": list(state.charges),
        "skills_used": list(state.skills_used),
        "airlift_active": state.airlift_active,
        "locked_pile": state.locked_pile(),
        "shut_pile": state.shut_pile(),
        "shut_piles": [state.shut_for(0), state.shut_for(1)],
        "jobs": jobs,
        "job_offer": list(state.job_offers[player]) if state.phase == "jobs" else [],
        "objectives": objectives,
        "mixup": state.mixup,
        "breakdown": [p.to_json() for p in score_round(state)] if scored else None,
        "winner": state.winner,
        "log": [_log_entry(e, player, jobs_revealed) for e in state.log],
        "legal_moves": [move_to_json(m) for m in legal_moves(state)] if acting else [],
        "refusals": refusals(state, player),
    }
