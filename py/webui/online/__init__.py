"""Online play by room code: two pages play a fair match, peer to peer. Browser-free
(importable natively, tested with pytest):

- `seat`, `host`, `guest`: the seats of an online match (`FairSeat`, what both share: a
  `lostcities.fair.FairPeer` over one connection; `FairHost`, `FairGuest`: the lobby's roles,
  the hello and the welcome);
- `lobby`: the lobby and the waiting room, a screen plugged into the controller that hands it
  its seat; what it needs of the browser is handed in (`lobby_browser.LobbyBrowser`);
- `codes` (room codes and join links), `control` (the pages' hello, welcome, heartbeat and
  refusals), `liveness` (heartbeat, connection state, flood budget), `peermeta` (the token a
  connecting peer sends), `seatlock` (one tab per seat).

The browser's side (PeerJS, libsodium, the Web Locks API) is webui/browser/online/.
"""
