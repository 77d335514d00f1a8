"""The words of the Stats, Replay, Calculator and series parts, in English and Spanish.

Kept beside `webui.i18n`'s catalogue (whose `t` it falls back to, for shared words such as
colours, jobs and mixups), with the same rules: every key in both languages with the same
placeholders (tests/test_stats_screen.py checks it, and that no key is in both catalogues).
"""

from __future__ import annotations

from webui import i18n

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
    "stats.winrate": ("Win rate", "Victorias"),
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
    "history.notice.history-set-aside": (
        "The saved history could not be read: it was set aside and a new one starts.",
        "No se pudo leer el historial guardado: se ha apartado y empieza uno nuevo.",
    ),
    "history.imported": ("{count} new matches imported.", "{count} partidas nuevas importadas."),
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
    "replay.dealt": ("The cards are dealt.", "Se reparten las cartas."),
    "replay.hands": ("Both hands", "Las dos manos"),
    "replay.hand.empty": ("no cards", "sin cartas"),
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
    "calc.empty": ("not started: 0", "sin empezar: 0"),
    "calc.total": ("Total", "Total"),
    "calc.clear": ("Clear all", "Borrar todo"),
    "calc.close": ("Back", "Volver"),
    # -- series -----------------------------------------------------------------------------
    "series.label": ("Series", "Serie"),
    "series.drawn": ("{count} drawn", "{count} empatadas"),
    "series.matches": ("{count} matches", "{count} partidas"),
}


def t(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang` from this catalogue, else from `webui.i18n`'s; KeyError
    if neither has it."""
    if key not in MESSAGES:
        return i18n.t(lang, key, **values)
    english, spanish = MESSAGES[key]
    text = spanish if lang == "es" else english
    return text.format(**values) if values else text
