"""What stops a fair match: every failed check is one of these, with its evidence."""

from __future__ import annotations

from typing import Any


class FairError(Exception):
    """A failed check. ``code`` is stable (see the subclasses), ``message`` is for the player,
    ``evidence`` is JSON-ready data showing what failed (kept in the save)."""

    def __init__(self, code: str, message: str, evidence: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.evidence: dict[str, Any] = dict(evidence or {})

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "code", "message", "evidence"}``, as the save keeps it."""
        return {"kind": type(self).__name__, "code": self.code, "message": self.message,
                "evidence": self.evidence}


class ProtocolViolation(FairError):
    """A message that breaks the protocol itself.

    Codes: ``bad-message`` (malformed: not JSON, a field missing, mistyped or out of range, a
    point off the group), ``replayed`` and ``out-of-order`` (its number is not the next one),
    ``unexpected`` (a part that nothing called for), ``not-your-turn``.
    """


class CheatDetected(FairError):
    """A check of the cards failed: the opponent cheated (or its page is broken).

    Codes: ``setup-mismatch``, ``bad-shuffle`` (a shuffle step is not a masked permutation of
    the previous one), ``bad-key`` (a key breaks its commitment or opens no item),
    ``duplicate-item`` (an item opened at two positions), ``wrong-card`` (a card is not the one
    claimed), ``not-in-hand`` (a play from a position its player does not hold),
    ``illegal-move``, ``withheld`` (a key or secret that was due is missing), ``audit`` (the
    revealed secrets do not reproduce what was sent, or the round does not replay).
    """


class MatchStopped(FairError):
    """The match was stopped by an earlier failure (code ``stopped``); nothing more is done."""


class NotAllowed(ValueError):
    """A local move that is not allowed now (not the player's turn, waiting, illegal)."""


def stopped_from_json(data: object) -> FairError:
    """A saved failure, back as its error type; ``ValueError`` if malformed."""
    kinds: dict[str, type[FairError]] = {
        c.__name__: c for c in (ProtocolViolation, CheatDetected, FairError)}
    if not isinstance(data, dict) or set(data) != {"kind", "code", "message", "evidence"}:
        raise ValueError("a saved failure must have kind, code, message and evidence")
    kind, code, message, evidence = data["kind"], data["code"], data["message"], data["evidence"]
    if kind not in kinds or not isinstance(code, str) or not isinstance(message, str) \
            or not isinstance(evidence, dict):
        raise ValueError("a saved failure is malformed")
    return kinds[kind](code, message, evidence)


def unexpected(what: str, **evidence: Any) -> ProtocolViolation:
    """The opponent sent ``what``, which nothing called for."""
    return ProtocolViolation("unexpected", f"The opponent sent {what}, which nothing called for",
                             evidence)


def cheat(code: str, message: str, **evidence: Any) -> CheatDetected:
    """A failed check of the cards, with its evidence."""
    return CheatDetected(code, message, evidence)
