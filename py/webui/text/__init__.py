"""The words of the page, in English and Spanish: the catalogue (`i18n`), the player's features'
words (`player_text`), cards and colours (`cards`) and moves and refusals (`moves`)."""
