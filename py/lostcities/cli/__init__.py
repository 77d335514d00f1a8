"""The command line's side of the engine (``python -m lostcities``): one module a command
(``score``, ``simulate``, ``protocol``) and the match host that speaks the wire protocol to other
programs (``host``). Native only: the page never imports this package, and app.zip leaves it
out."""
