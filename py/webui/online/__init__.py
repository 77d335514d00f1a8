"""Online play by room code: the host's page runs the match, the guest's page sends moves.

The seats of an online match are webui/seats/remote_host.py (`OnlineHost`) and
remote_guest.py (`OnlineGuest`). Here, browser-free (importable natively, tested with pytest):
`codes` (room codes and join links), `liveness` (heartbeat and connection state), `peermeta`
(the token a connecting peer sends), `screens` (lobby, waiting room, connection badge). Pyodide
only: `net` (PeerJS: the seats' transports) and `lobby` (the lobby and waiting room, a screen
plugged into the controller).
"""
