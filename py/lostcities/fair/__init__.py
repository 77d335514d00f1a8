"""Fair online play: two peers deal and play a match with no one able to see a hidden card or
stack the deck (mental poker over a prime-order group). Pure Python, no I/O; the group is
passed in (``lostcities.fair.sodium.SodiumGroup`` natively). See docs/fair-play.md.
"""

from .errors import CheatDetected, FairError, MatchStopped, NotAllowed, ProtocolViolation
from .group import ORDER, Group
from .peer import FairPeer

__all__ = [
    "CheatDetected", "FairError", "FairPeer", "Group", "MatchStopped", "NotAllowed", "ORDER",
    "ProtocolViolation",
]
