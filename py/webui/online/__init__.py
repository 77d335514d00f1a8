"""Online play by room code: two pages play a fair match, peer to peer.

The seats of an online match are webui/online/fair.py (`FairHost`, `FairGuest`: a
`lostcities.fair.FairPeer` each). Here, browser-free (importable natively, tested with pytest):
`codes` (room codes and join links), `control` (the pages' hello, welcome, heartbeat and
refusals), `liveness` (heartbeat, connection state, flood budget), `peermeta` (the token a
connecting peer sends), `screens` (lobby, waiting room, connection badge). Pyodide only: `net`
(PeerJS: the seats' transports), `sodium_group` (libsodium's group for the fair protocol) and
`lobby` (the lobby and waiting room, a screen plugged into the controller).
"""
