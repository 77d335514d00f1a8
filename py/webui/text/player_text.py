"""The words of the Stats, Replay, Calculator, series and guide parts, in English and Spanish.

Kept beside `webui.text.i18n`'s catalogue (whose `t` it falls back to, for shared words such as
colours, jobs and mixups), with the same rules: every key in both languages with the same
placeholders (tests/test_stats_screen.py checks it, and that no key is in both catalogues).
"""

from __future__ import annotations

from webui.text import i18n

# key -> (English, Spanish)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- stats ------------------------------------------------------------------------------
    "stats.heading": ("Your statistics", "Tus estadísticas"),
    "stats.results": ("Results by opponent", "Resultados por rival"),
    "stats.opponent": ("Opponent", "Rival"),
    "stats.played": ("Played", "Jugadas"),
    "stats.won": ("Won", "Ganadas"),
    "stats.lost": ("Lost", "Perdidas"),
    "stats.drawn": ("Drawn", "Empatadas"),
    "stats.abandoned": ("Abandoned by them", "Abandonadas por el rival"),
    "stats.winrate": ("Win rate", "Victorias"),
    "stats.short.played": ("P", "PJ"),
    "stats.short.won": ("W", "G"),
    "stats.short.lost": ("L", "P"),
    "stats.short.drawn": ("D", "E"),
    "stats.short.abandoned": ("A", "A"),
    "stats.short.winrate": ("%", "%"),
    "stats.opp.easy": ("Computer: easy", "Ordenador: fácil"),
    "stats.opp.medium": ("Computer: medium", "Ordenador: medio"),
    "stats.opp.hard": ("Computer: hard", "Ordenador: difícil"),
    "stats.opp.human": ("Pass and play", "En este dispositivo, por turnos"),
    "stats.opp.online": ("Online", "En línea"),
    "stats.all": ("All", "Todas"),
    "stats.records": ("Records", "Récords"),
    "stats.best": ("Best round score", "Mejor puntuación de una ronda"),
    "stats.average": ("Average round score", "Puntuación media por ronda"),
    "stats.longest": ("Longest expedition", "Expedición más larga"),
    "stats.highest": ("Highest-scoring expedition", "Expedición con más puntos"),
    "stats.expedition": (
        "{colour}: {cards} cards, {score} points (round {round}, {date})",
        "{colour}: {cards} cartas, {score} puntos (ronda {round}, {date})",
    ),
    "stats.none": ("none yet", "aún ninguna"),
    "stats.margins": ("Margins of the last matches", "Diferencias de las últimas partidas"),
    "stats.margins.hint": (
        "Your total minus your opponent's, oldest match first.",
        "Tu total menos el de tu rival, de la partida más antigua a la más reciente.",
    ),
    "stats.margins.label": ("Score margins: {list}", "Diferencias de puntos: {list}"),
    "stats.margin": ("{date}: {margin} ({result})", "{date}: {margin} ({result})"),
    "stats.result.won": ("won", "ganada"),
    "stats.result.lost": ("lost", "perdida"),
    "stats.result.drawn": ("drawn", "empatada"),
    "stats.result.abandoned": ("abandoned by the opponent", "abandonada por el rival"),
    "stats.empty": (
        "No finished matches yet: each one you finish shows here.",
        "Aún no hay partidas terminadas: cada una que termines aparecerá aquí.",
    ),
    "stats.file": ("Move your history to another device", "Lleva tu historial a otro dispositivo"),
    "stats.export": ("Export to a file", "Exportar a un archivo"),
    "stats.import": ("Import a file", "Importar un archivo"),
    "stats.close": ("Back", "Volver"),
    "history.notice.records-set-aside": (
        "{count} damaged match records could not be read: they were set aside.",
        "No se pudieron leer {count} registros de partidas dañados: se han apartado.",
    ),
    "history.notice.records-set-aside.one": (
        "1 damaged match record could not be read: it was set aside.",
        "No se pudo leer 1 registro de partida dañado: se ha apartado.",
    ),
    "history.notice.history-set-aside": (
        "The saved history could not be read: it was set aside and a new one starts.",
        "No se pudo leer el historial guardado: se ha apartado y empieza uno nuevo.",
    ),
    "history.imported": ("{count} new matches imported.", "{count} partidas nuevas importadas."),
    "history.imported.one": ("1 new match imported.", "1 partida nueva importada."),
    "history.import.bad": (
        "That file is not a Lost Cities history: nothing was imported.",
        "Ese archivo no es un historial de Lost Cities: no se ha importado nada.",
    ),
    # -- replay -----------------------------------------------------------------------------
    "replay.heading": ("Replay", "Repetición"),
    "replay.prev": ("Previous move", "Jugada anterior"),
    "replay.next": ("Next move", "Jugada siguiente"),
    "replay.step": ("Move {step} of {steps}", "Jugada {step} de {steps}"),
    "replay.rounds": ("Go to a round", "Ir a una ronda"),
    "replay.round": ("Round {round}", "Ronda {round}"),
    "replay.round.end": ("End", "Final"),
    "replay.round.end.label": ("End of round {round}", "Final de la ronda {round}"),
    "replay.turn.prev": ("Previous turn", "Turno anterior"),
    "replay.turn.next": ("Next turn", "Turno siguiente"),
    "replay.play": ("Play", "Reproducir"),
    "replay.pause": ("Pause", "Pausa"),
    "replay.speed": ("Speed", "Velocidad"),
    "replay.speed.slow": ("Slow", "Lenta"),
    "replay.speed.normal": ("Normal", "Normal"),
    "replay.speed.fast": ("Fast", "Rápida"),
    "replay.dealt": ("The cards are dealt.", "Se reparten las cartas."),
    "replay.hands": ("Both hands", "Las dos manos"),
    "replay.hand.empty": ("no cards", "sin cartas"),
    "replay.hand.hidden": ("{count} cards, hidden", "{count} cartas, ocultas"),
    "replay.hand.hidden.one": ("1 card, hidden", "1 carta, oculta"),
    "replay.close": ("Close the replay", "Cerrar la repetición"),
    # -- calculator -------------------------------------------------------------------------
    "calc.heading": ("Score calculator", "Calculadora de puntos"),
    "calc.hint": (
        "Tap the cards of each expedition on your table to see what it scores.",
        "Toca las cartas de cada expedición de tu mesa para ver cuánto puntúa.",
    ),
    "calc.options": ("Rules that change the score", "Reglas que cambian la puntuación"),
    "calc.none": ("None", "Ninguno"),
    "calc.handshake": ("{card} ({copy} of 3)", "{card} ({copy} de 3)"),
    "calc.expedition": ("{colour} expedition", "Expedición {colour}"),
    "calc.empty": ("not started:", "sin empezar:"),
    "calc.total": ("Total", "Total"),
    "calc.clear": ("Clear all", "Borrar todo"),
    "calc.close": ("Back", "Volver"),
    # -- series -----------------------------------------------------------------------------
    "series.label": ("Series", "Serie"),
    "series.drawn": ("{count} drawn", "{count} empatadas"),
    "series.drawn.one": ("1 drawn", "1 empatada"),
    "series.abandoned": ("{count} abandoned", "{count} abandonadas"),
    "series.abandoned.one": ("1 abandoned", "1 abandonada"),
    "series.after": ("Series: {first} {wins0} – {wins1} {second}.",
                     "Serie: {first} {wins0} – {wins1} {second}."),
    "series.matches": ("{count} matches", "{count} partidas"),
    "series.matches.one": ("1 match", "1 partida"),
    "rematch.asked": (
        "Waiting for {name} to accept the rematch…",
        "Esperando a que {name} acepte la revancha…",
    ),
    "rematch.away": (
        "Their page is not connected now: your request goes as soon as it is back.",
        "Su página no está conectada ahora: tu petición le llegará en cuanto vuelva.",
    ),
    "rematch.invited": (
        "{name} asks for a rematch: Play again to accept.",
        "{name} pide la revancha: pulsa Jugar otra vez para aceptar.",
    ),
    "rematch.starting": ("Both agreed: dealing the next match…",
                         "Los dos estáis de acuerdo: repartiendo la siguiente partida…"),
    "rematch.left": (
        "{name} left the room: no rematch here.", "{name} dejó la sala: aquí no hay revancha."),
    "rematch.refused": (
        "A rematch message from the other page was refused: {reason}.",
        "Se rechazó un mensaje de revancha de la otra página: {reason}.",
    ),
    "rematch.cannot": ("No rematch now: {reason}.", "Ahora no hay revancha: {reason}."),
    # -- match end, and what is kept ----------------------------------------------------------
    "players.replay": ("Replay the match", "Ver la repetición"),
    "players.stats": ("Statistics", "Estadísticas"),
    "players.unsaved": (
        "The finished match could not be added to your history. ({reason})",
        "La partida terminada no se pudo añadir a tu historial. ({reason})",
    ),
    "players.current.set-aside": (
        "What was kept of the match in progress could not be read, so it was set aside; the "
        "match goes on. ({reason})",
        "Lo guardado de la partida en curso no se pudo leer y se ha apartado; la partida "
        "sigue. ({reason})",
    ),
    "players.not-kept": (
        "it is not in the history on this device",
        "no está en el historial de este dispositivo",
    ),
    "players.no-replay": (
        "This match can't be replayed. ({reason})",
        "Esta partida no se puede repetir. ({reason})",
    ),
    # -- the history list on the Stats screen ---------------------------------------------------
    "history.heading": ("Your matches", "Tus partidas"),
    "history.match": (
        "{date} · {opponent}: {mine} to {theirs} ({result})",
        "{date} · {opponent}: {mine} a {theirs} ({result})",
    ),
    "history.replay": ("Replay", "Repetición"),
    "history.replay.label": (
        "Replay the match of {date}", "Ver la repetición de la partida del {date}"),
    "history.more": (
        "{count} older matches are kept too.", "También se guardan {count} partidas más antiguas."),
    "history.more.one": (
        "1 older match is kept too.", "También se guarda 1 partida más antigua."),
    # -- the first-game guide ---------------------------------------------------------------
    "guide.count": ("Guide: step {step} of {steps}", "Guía: paso {step} de {steps}"),
    "guide.skip": ("Skip the guide", "Saltar la guía"),
    "guide.close": ("Close the guide", "Cerrar la guía"),
    "guide.handshake.title": ("Handshakes come first", "Los apretones de manos van primero"),
    "guide.handshake.text": (
        "A handshake is a wager: it doubles what its expedition scores, win or lose, and it "
        "must go down before any number of its colour. Pick your yellow handshake, then press "
        "Play.",
        "Un apretón de manos es una apuesta: duplica lo que puntúa su expedición, para bien o "
        "para mal, y debe ir antes que cualquier número de su color. Elige tu apretón de manos "
        "amarillo y pulsa Jugar.",
    ),
    "guide.draw.title": ("Every turn ends with a draw", "Cada turno acaba robando"),
    "guide.draw.text": (
        "After you play or discard a card you always draw one: the top card of the deck, or "
        "the top card of a discard pile. Take one from the deck now.",
        "Después de jugar o descartar una carta siempre robas una: la de encima del mazo o la "
        "de encima de una pila de descartes. Roba ahora del mazo.",
    ),
    "guide.ascending.title": ("Numbers go up", "Los números suben"),
    "guide.ascending.text": (
        "Each number you add to an expedition must be higher than the last one there (not "
        "necessarily the next one). Play your yellow 3 on your yellow expedition.",
        "Cada número que añades a una expedición debe ser mayor que el último (no hace falta "
        "que sea el siguiente). Juega tu 3 amarillo en tu expedición amarilla.",
    ),
    "guide.pile.title": ("Choose where you draw", "Elige de dónde robas"),
    "guide.pile.text": (
        "The computer discarded the yellow 5, and it suits your expedition. Instead of the "
        "deck, draw it from the yellow pile.",
        "El ordenador ha descartado el 5 amarillo, y le va bien a tu expedición. En vez de "
        "robar del mazo, cógelo de la pila amarilla.",
    ),
    "guide.cost.title": ("An expedition costs 20", "Una expedición cuesta 20"),
    "guide.cost.text": (
        "Your yellow expedition shows −34: starting one costs 20 points, so (3 − 20) × 2 with "
        "the handshake. The numbers you add pay the cost back. Play your yellow 5 and watch "
        "the score climb.",
        "Tu expedición amarilla marca −34: empezar una cuesta 20 puntos, así que (3 − 20) × 2 "
        "con el apretón de manos. Los números que añades pagan ese coste. Juega tu 5 amarillo "
        "y verás subir la puntuación.",
    ),
    "guide.bonus.title": ("The bonus of 20", "El bono de 20"),
    "guide.bonus.text": (
        "An expedition of eight cards or more, handshakes counted, earns 20 more points, added "
        "after the multiplier. Yours holds three cards. Draw from the deck.",
        "Una expedición de ocho cartas o más, contando los apretones de manos, gana 20 puntos "
        "más, que se suman después del multiplicador. La tuya tiene tres cartas. Roba del mazo.",
    ),
    "guide.discard.title": ("Discard what you can't use", "Descarta lo que no te sirve"),
    "guide.discard.text": (
        "Alone, the red 2 would cost you 18 points: don't start an expedition you can't pay "
        "for. Select it and press Discard: it goes face up on the red pile.",
        "Sola, el 2 rojo te costaría 18 puntos: no empieces una expedición que no puedas "
        "pagar. Selecciónalo y pulsa Descartar: va boca arriba a la pila roja.",
    ),
    "guide.last.title": ("Draw, and play on", "Roba y sigue jugando"),
    "guide.last.text": (
        "You may not draw back the card you have just discarded: draw from the deck. Then the "
        "round is yours: it ends when the last card of the deck is drawn.",
        "No puedes volver a robar la carta que acabas de descartar: roba del mazo. Después la "
        "ronda es tuya: termina cuando se roba la última carta del mazo.",
    ),
    "guide.done.title": ("You know the game", "Ya sabes jugar"),
    "guide.done.text": (
        "Play the round to its end against the computer. Good luck!",
        "Juega la ronda hasta el final contra el ordenador. ¡Suerte!",
    ),
}


def t(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang` from this catalogue, else from `webui.text.i18n`'s; KeyError
    if neither has it."""
    if key not in MESSAGES:
        return i18n.t(lang, key, **values)
    return i18n.message(MESSAGES, lang, key, values)
