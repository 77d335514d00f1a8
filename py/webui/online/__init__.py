"""Online play by room code: the host's page runs the match, the guest's page sends moves.

Browser-free cores (importable natively, tested with pytest): `codes` (room codes and join
links), `liveness` (heartbeat and connection state), `hostside` (`OnlineHost`, wrapping the
engine's `MatchHost`), `guestside` (`OnlineGuest`), `screens` and `text` (lobby, waiting screen,
connection badge). `net` and `controller` talk to PeerJS and the page (Pyodide only).
"""
