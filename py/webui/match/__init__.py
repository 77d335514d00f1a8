"""A match, whoever plays it: the one controller of the page (`controller`), a match at the
table (`session`), the setup form read (`setup`), the computer's thinking (`thinking`), the
hint (`hint`), the seats (`seats`: what the controller asks of every seat, and the ones
played on this device) and rematch series (`series`)."""
