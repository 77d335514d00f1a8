"""The player's own features: keeping each match (`keeper`) in the history (`history`,
`history_store`), statistics (`stats`, `stats_screen`), replays (`replay`), the score
calculator (`calculator`) and the first-game guide (`guide`)."""
