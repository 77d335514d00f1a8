"""The player's features plugged into the controller (`players`: their screens, listeners and
parts, offline and online) and what they add to the match-end screen (`match_end`)."""
