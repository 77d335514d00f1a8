"""The one catalogue of player-facing text, in English and Spanish.

`t(lang, key, **values)` formats a message; every key exists in both languages with the same
placeholders (a native test checks it). The language follows the browser (`pick_language`)
and a switch on the page changes it.
"""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("en", "es")
DEFAULT_LANGUAGE = "en"

# key -> (English, Spanish)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- page and setup ---------------------------------------------------------------------
    "app.title": ("Lost Cities", "Lost Cities"),
    "app.tagline": ("Five roads into the unknown", "Cinco rutas hacia lo desconocido"),
    "lang.switch": ("Español", "English"),
    "lang.switch.label": ("Cambiar a español", "Switch to English"),
    "setup.heading": ("New match", "Nueva partida"),
    "setup.names": ("Players", "Jugadores"),
    "setup.name1": ("Player 1 name", "Nombre del jugador 1"),
    "setup.name2": ("Player 2 name", "Nombre del jugador 2"),
    "setup.default1": ("Player 1", "Jugador 1"),
    "setup.default2": ("Player 2", "Jugador 2"),
    "setup.rounds": ("Rounds", "Rondas"),
    "setup.rounds.hint": (
        "A standard match is three rounds.",
        "Una partida normal tiene tres rondas.",
    ),
    "setup.mode": ("Play", "Jugar"),
    "setup.mode.local": ("On this device", "En este dispositivo"),
    "setup.mode.online": ("Online, by room code", "En línea, con código de sala"),
    "setup.starts": ("Who starts", "Quién empieza"),
    "setup.starts.p1": ("Player 1", "Jugador 1"),
    "setup.starts.p2": ("Player 2", "Jugador 2"),
    "setup.starts.random": ("Random", "Al azar"),
    "setup.options": ("Options", "Opciones"),
    "setup.options.hint": (
        "All off is plain Lost Cities, card for card.",
        "Todo desactivado es Lost Cities clásico, carta por carta.",
    ),
    "option.sixth-colour": ("Sixth colour", "Sexto color"),
    "option.sixth-colour.hint": (
        "Adds purple: six expeditions and 72 cards.",
        "Añade el morado: seis expediciones y 72 cartas.",
    ),
    "option.jobs": ("Jobs", "Oficios"),
    "option.jobs.hint": (
        "Each player picks one of two jobs that bends a rule for the whole match.",
        "Cada jugador elige uno de dos oficios que cambia una regla toda la partida.",
    ),
    "option.skills": ("Skills", "Habilidades"),
    "option.skills.hint": (
        "Discarding earns charges for Radio, Airlift and Sabotage.",
        "Descartar da cargas para Radio, Puente aéreo y Sabotaje.",
    ),
    "option.objectives": ("Objectives", "Objetivos"),
    "option.objectives.hint": (
        "Two secret goals each round, worth +25 apiece.",
        "Dos metas secretas cada ronda, +25 cada una.",
    ),
    "option.mixups": ("Endgame mixups", "Sorpresas finales"),
    "option.mixups.hint": (
        "Last round only: a rule card flips when 8 cards are left in the deck.",
        "Solo en la última ronda: se revela una carta de regla cuando quedan 8 en el mazo.",
    ),
    "setup.start": ("Start match", "Empezar partida"),
    "setup.loading": ("Shuffling the cards", "Barajando las cartas"),
    "setup.waiting": (
        "Starting as soon as the game has loaded…",
        "Empezará en cuanto el juego termine de cargar…",
    ),
    "rules.open": ("Rules", "Reglas"),
    "setup.stats": ("Statistics", "Estadísticas"),
    "setup.guide": ("First game: a guided round", "Primera partida: una ronda guiada"),
    "setup.guide.first": ("New to Lost Cities? Play a guided first round",
                          "¿Nuevo en Lost Cities? Juega una primera ronda guiada"),
    "setup.calculator": ("Score calculator", "Calculadora de puntos"),
    "rules.close": ("Back", "Volver"),
    "abandon": ("Abandon match", "Abandonar partida"),
    "target.play": ("Play here", "Jugar aquí"),
    "target.play.card": ("Play here: {card}", "Jugar aquí: {card}"),
    "target.discard": ("Discard here", "Descartar aquí"),
    "target.discard.card": ("Discard here: {card}", "Descartar aquí: {card}"),
    "abandon.confirm": (
        "Abandon this match? It cannot be resumed.",
        "¿Abandonar esta partida? No se podrá reanudar.",
    ),
    "abandon.yes": ("Yes, abandon", "Sí, abandonar"),
    "abandon.no": ("Keep playing", "Seguir jugando"),
    "notice.corrupt": (
        "The saved match could not be loaded, so it was set aside. ({reason})",
        "La partida guardada no se pudo cargar y se ha apartado. ({reason})",
    ),
    "notice.unshown": (
        "The match could not be shown, so it was set aside. ({reason})",
        "La partida no se pudo mostrar y se ha apartado. ({reason})",
    ),
    "notice.dismiss": ("Dismiss", "Cerrar"),
    "notice.resumed": ("Match resumed.", "Partida reanudada."),
    "notice.more-failed": (
        "Online play, the computer and your stats could not be loaded; matches between two "
        "players on this device play on, and every match is kept. Reload the page to try "
        "again.",
        "No se pudieron cargar el juego en línea, el ordenador ni tus estadísticas; las "
        "partidas entre dos jugadores en este dispositivo siguen, y todas se conservan. "
        "Recarga la página para intentarlo de nuevo.",
    ),
    "update.offer": (
        "A new version of the game is ready. Your saved match is kept.",
        "Hay una versión nueva del juego. Tu partida guardada se conserva.",
    ),
    "update.button": ("New version available - reload", "Versión nueva disponible: recargar"),
    "error.engine": ("Something went wrong: {reason}", "Algo ha fallado: {reason}"),
    # -- the computer opponent and hints ----------------------------------------------------
    "setup.opponent": ("Opponent", "Rival"),
    "setup.opponent.human": ("Another person", "Otra persona"),
    "setup.opponent.easy": ("Computer: easy", "Ordenador: fácil"),
    "setup.opponent.medium": ("Computer: medium", "Ordenador: medio"),
    "setup.opponent.hard": ("Computer: hard", "Ordenador: difícil"),
    "bot.name.easy": ("Computer (easy)", "Ordenador (fácil)"),
    "bot.name.medium": ("Computer (medium)", "Ordenador (medio)"),
    "bot.name.hard": ("Computer (hard)", "Ordenador (difícil)"),
    "bot.thinking": ("{name} is thinking…", "{name} está pensando…"),
    "hint.button": ("Hint", "Pista"),
    "hint.thinking": ("Thinking…", "Pensando…"),
    "hint.label": (
        "Hint: what the hard computer would play",
        "Pista: lo que jugaría el ordenador difícil",
    ),
    "hint.says": ("The hard computer would:", "El ordenador difícil haría:"),
    "hint.move.skill": ("Use {skill}", "Usar {skill}"),
    "hint.move.job": ("Pick {job}", "Elegir {job}"),
    "hint.why.handshake": (
        "It raises the stake on the {colour} expedition: you hold {count} of its cards, "
        "worth {worth}.",
        "Sube la apuesta de la expedición {colour}: tienes {count} cartas de ese color, "
        "que suman {worth}.",
    ),
    "hint.why.handshake.one": (
        "It raises the stake on the {colour} expedition: you hold 1 of its cards, worth {worth}.",
        "Sube la apuesta de la expedición {colour}: tienes 1 carta de ese color, que vale "
        "{worth}.",
    ),
    "hint.why.start": (
        "It starts the {colour} expedition: you hold {count} of its cards, worth {worth}.",
        "Empieza la expedición {colour}: tienes {count} cartas de ese color, que suman {worth}.",
    ),
    "hint.why.start.one": (
        "It starts the {colour} expedition: you hold 1 of its cards, worth {worth}.",
        "Empieza la expedición {colour}: tienes 1 carta de ese color, que vale {worth}.",
    ),
    "hint.why.continue": (
        "It continues your {colour} expedition.",
        "Continúa tu expedición {colour}.",
    ),
    "hint.why.discard-least": (
        "Of your cards it is the one you need least and it helps your opponent least.",
        "De tus cartas es la que menos necesitas y la que menos ayuda a tu rival.",
    ),
    "hint.why.discard-safe": (
        "Your opponent can't use it, and you need it least.",
        "Tu rival no puede usarla y es la que menos necesitas.",
    ),
    "hint.why.deck": ("No discard is worth taking.", "Ningún descarte merece la pena."),
    "hint.why.pile-fits": (
        "It fits your {colour} expedition.",
        "Encaja en tu expedición {colour}.",
    ),
    "hint.why.pile-deny": (
        "It takes it before your opponent can.",
        "Así te la llevas antes que tu rival.",
    ),
    "hint.why.pile-stall": (
        "It leaves the deck alone, so the round lasts longer.",
        "No toca el mazo, así que la ronda dura más.",
    ),
    # -- cards, colours, zones -------------------------------------------------------------
    "colour.Y": ("yellow", "amarillo"),
    "colour.B": ("blue", "azul"),
    "colour.W": ("white", "blanco"),
    "colour.G": ("green", "verde"),
    "colour.R": ("red", "rojo"),
    "colour.P": ("purple", "morado"),
    # feminine forms for Spanish (pila, expedición); English repeats the plain form
    "colour.f.Y": ("yellow", "amarilla"),
    "colour.f.B": ("blue", "azul"),
    "colour.f.W": ("white", "blanca"),
    "colour.f.G": ("green", "verde"),
    "colour.f.R": ("red", "roja"),
    "colour.f.P": ("purple", "morada"),
    "card.number": ("{colour} {number}", "{colour} {number}"),
    "card.handshake": ("{colour} handshake", "Apretón de manos {colour}"),
    "card.back": ("Face-down card", "Carta boca abajo"),
    "zone.hand.mine": ("Your hand", "Tu mano"),
    "zone.hand.count": ("{name} holds {count} cards", "{name} tiene {count} cartas"),
    "zone.hand.count.one": ("{name} holds 1 card", "{name} tiene 1 carta"),
    "zone.expeditions.mine": ("Your expeditions", "Tus expediciones"),
    "zone.expeditions.of": ("{name}'s expeditions", "Expediciones de {name}"),
    "zone.expedition": (
        "{name}'s {colour} expedition: {cards}, score {score}",
        "Expedición {colour} de {name}: {cards}, {score} puntos",
    ),
    "zone.expedition.empty": ("not started", "sin empezar"),
    "zone.piles": ("Discard piles and deck", "Pilas de descarte y mazo"),
    "zone.deck": ("Deck", "Mazo"),
    "zone.deck.count": ("{count} left", "quedan {count}"),
    "zone.deck.count.one": ("1 left", "queda 1"),
    "zone.pile.size": ("{count} cards", "{count} cartas"),
    "zone.pile.size.one": ("1 card", "1 carta"),
    "action.draw.deck": (
        "Draw from the deck, {count} left",
        "Robar del mazo, quedan {count}",
    ),
    "action.draw.deck.one": ("Draw from the deck, 1 left", "Robar del mazo, queda 1"),
    "action.draw.pile": (
        "Draw from the {colour} discard pile",
        "Robar de la pila de descarte {colour}",
    ),
    "action.draw.pile.top": (
        "Draw {card} from the {colour} discard pile",
        "Robar {card} de la pila de descarte {colour}",
    ),
    "pile.shut.short": ("Shut", "Cerrada"),
    "pile.locked.short": ("Locked", "Bloqueada"),
    "score": ("Score", "Puntos"),
    "score.running": ("{name}: {score} this round", "{name}: {score} en esta ronda"),
    "round.of": ("Round {round} of {rounds}", "Ronda {round} de {rounds}"),
    # -- a turn ------------------------------------------------------------------------------
    "turn.of": ("{name}'s turn", "Turno de {name}"),
    "turn.step.play": (
        "Pick a card, then play or discard it",
        "Elige una carta y juégala o descártala",
    ),
    "turn.step.draw": (
        "Draw from the deck or a discard pile",
        "Roba del mazo o de una pila de descarte",
    ),
    "action.select": ("{card}", "{card}"),
    "action.play": ("Play", "Jugar"),
    "action.play.card": ("Play {card}", "Jugar {card}"),
    "action.discard": ("Discard", "Descartar"),
    "action.discard.card": ("Discard {card}", "Descartar {card}"),
    "action.undo": ("Undo", "Deshacer"),
    "action.undo.label": ("Undo your play or discard", "Deshacer tu jugada o descarte"),
    "why.illegal": ("That move is not allowed now.", "Ese movimiento no está permitido ahora."),
    # -- the engine's refusals, by code (webui.text.moves.refusal_text; colours as for la pila) ----
    "refusal.not-a-move": ("That is not a move.", "Eso no es un movimiento."),
    "refusal.not-your-turn": ("It is not your turn.", "No es tu turno."),
    "refusal.wrong-phase.jobs": ("First pick your job.", "Primero elige tu oficio."),
    "refusal.wrong-phase.play": (
        "First play or discard a card.", "Primero juega o descarta una carta.",
    ),
    "refusal.wrong-phase.draw": (
        "Now draw a card to end your turn.", "Ahora roba una carta para terminar.",
    ),
    "refusal.wrong-phase.round-end": (
        "The round is over: start the next round.",
        "La ronda ha terminado: empieza la siguiente.",
    ),
    "refusal.wrong-phase.match-end": ("The match is over.", "La partida ha terminado."),
    "refusal.no-such-colour": (
        "There is no {colour} expedition in this match.",
        "En esta partida no hay expedición {colour}.",
    ),
    "refusal.card-not-in-hand": ("You don't hold {card}.", "No tienes {card}."),
    "refusal.below-top": ("{card} can't follow {top}.", "{card} no puede ir después de {top}."),
    "refusal.handshake-after-number": (
        "A handshake can't follow a number in the {colour} expedition.",
        "Un apretón de manos no puede ir después de un número en la expedición {colour}.",
    ),
    "refusal.deck-empty": ("The deck is empty.", "El mazo está vacío."),
    "refusal.pile-empty": ("The {colour} pile is empty.", "La pila {colour} está vacía."),
    "refusal.pile-locked": (
        "Locked: you just discarded onto the {colour} pile.",
        "Bloqueada: acabas de descartar en la pila {colour}.",
    ),
    "refusal.pile-shut": (
        "Shut by sabotage: you can't draw from the {colour} pile this turn.",
        "Cerrada por sabotaje: no puedes robar de la pila {colour} este turno.",
    ),
    "refusal.skills-off": (
        "Skills are off in this match.", "Las habilidades están desactivadas en esta partida.",
    ),
    "refusal.skill-too-late": (
        "Use {skill} before your play or discard.", "Usa {skill} antes de jugar o descartar.",
    ),
    "refusal.skill-used": ("You already used {skill} this turn.", "Ya usaste {skill} este turno."),
    "refusal.no-charge": (
        "{skill} costs ⚡{cost}; you have ⚡{charges}.",
        "{skill} cuesta ⚡{cost}; tienes ⚡{charges}.",
    ),
    "refusal.job-not-offered": ("{job} was not offered to you.", "{job} no se te ofreció."),
    "refusal.nothing-to-undo": ("There is nothing to undo.", "No hay nada que deshacer."),
    "refusal.stopped": (
        "The match was stopped: see the notice above.",
        "La partida se detuvo: mira el aviso de arriba."),
    "refusal.offline": (
        "Not connected to the other player: wait for the connection to come back.",
        "Sin conexión con el otro jugador: espera a que vuelva la conexión."),
    "refusal.awaiting-answer": (
        "Wait for the other player's page to answer your last move.",
        "Espera a que la página del otro jugador responda a tu último movimiento."),
    "refusal.not-started": (
        "The match starts when your opponent joins.",
        "La partida empieza cuando se una tu rival."),
    "refusal.guide-step": (
        "The guide asks for another move here: see its step above (or skip the guide).",
        "La guía pide otra jugada aquí: mira su paso arriba (o sáltate la guía)."),
    # -- hand-off ----------------------------------------------------------------------------
    "handoff.pass": ("Pass to {name}", "Pásale el dispositivo a {name}"),
    "handoff.hint": (
        "Hands are hidden. {name}, tap when ready.",
        "Las manos están ocultas. {name}, toca cuando estés listo.",
    ),
    "handoff.ready": ("Ready", "Listo"),
    "handoff.ready.label": ("{name} is ready: show the hand", "{name} está listo: mostrar la mano"),
    "handoff.last": ("The last turn", "El último turno"),
    # -- jobs ---------------------------------------------------------------------------------
    "jobs.heading": ("{name}, pick your job", "{name}, elige tu oficio"),
    "jobs.hint": (
        "It lasts the whole match. Your opponent sees only the job you pick.",
        "Dura toda la partida. Tu rival solo verá el oficio que elijas.",
    ),
    "jobs.reveal": ("Jobs revealed", "Oficios revelados"),
    "jobs.of": ("{name}: {job}", "{name}: {job}"),
    "job.label": ("Job", "Oficio"),
    "job.quartermaster": ("Quartermaster", "Intendente"),
    "job.quartermaster.hint": ("Hand of 9 cards instead of 8.", "Mano de 9 cartas en vez de 8."),
    "job.surveyor": ("Surveyor", "Topógrafo"),
    "job.surveyor.hint": (
        "Expeditions cost 15 instead of 20.",
        "Las expediciones cuestan 15 en vez de 20.",
    ),
    "job.chronicler": ("Chronicler", "Cronista"),
    "job.chronicler.hint": (
        "The bonus needs 7 cards instead of 8.",
        "El bono pide 7 cartas en vez de 8.",
    ),
    "job.financier": ("Financier", "Financiero"),
    "job.financier.hint": (
        "Handshakes never multiply a loss.",
        "Los apretones nunca multiplican una pérdida.",
    ),
    "job.collector": ("Collector", "Coleccionista"),
    "job.collector.hint": ("The bonus is +30 instead of +20.", "El bono es +30 en vez de +20."),
    "job.scout": ("Scout", "Explorador"),
    "job.scout.hint": (
        "Sees the top card of the deck during their turn.",
        "Ve la carta de arriba del mazo durante su turno.",
    ),
    # -- skills -------------------------------------------------------------------------------
    "skills.heading": ("Skills", "Habilidades"),
    "skills.charges": ("{count} charges", "{count} cargas"),
    "skills.charges.one": ("1 charge", "1 carga"),
    "skills.charges.of": ("{name}: {count} charges", "{name}: {count} cargas"),
    "skills.charges.of.one": ("{name}: 1 charge", "{name}: 1 carga"),
    "skill.radio": ("Radio", "Radio"),
    "skill.radio.hint": (
        "1 charge: privately see the top two cards of the deck.",
        "1 carga: mira en secreto las dos cartas de arriba del mazo.",
    ),
    "skill.airlift": ("Airlift", "Puente aéreo"),
    "skill.airlift.hint": (
        "2 charges: your play this turn ignores the ascending rule.",
        "2 cargas: tu jugada de este turno ignora el orden ascendente.",
    ),
    "skill.airlift.active": (
        "Airlift active: any card may go onto its expedition.",
        "Puente aéreo activo: cualquier carta puede ir a su expedición.",
    ),
    "skill.sabotage": ("Sabotage", "Sabotaje"),
    "skill.sabotage.hint": (
        "3 charges: shut a discard pile on your opponent's next turn.",
        "3 cargas: cierra una pila de descarte en el próximo turno de tu rival.",
    ),
    "skill.sabotage.choose": ("Shut which pile?", "¿Qué pila cerrar?"),
    "skill.sabotage.pile": ("Shut the {colour} pile", "Cerrar la pila {colour}"),
    "skill.cancel": ("Cancel", "Cancelar"),
    "skill.used": ("used this turn", "usada este turno"),
    "peek.radio": ("Top of the deck, only you see it:", "Arriba del mazo, solo tú lo ves:"),
    # -- objectives -------------------------------------------------------------------------
    "objectives.mine": (
        "Your secret objectives (+25 each)",
        "Tus objetivos secretos (+25 cada uno)",
    ),
    "objective.long-haul": ("Long haul", "Largo recorrido"),
    "objective.long-haul.hint": (
        "An expedition of 7 or more cards.",
        "Una expedición de 7 cartas o más.",
    ),
    "objective.grand-tour": ("Grand tour", "Gran gira"),
    "objective.grand-tour.hint": ("Start 5 or more expeditions.", "Empieza 5 expediciones o más."),
    "objective.in-the-black": ("In the black", "Sin números rojos"),
    "objective.in-the-black.hint": (
        "Start an expedition and let none score below 0.",
        "Empieza alguna expedición y que ninguna puntúe bajo 0.",
    ),
    "objective.high-stakes": ("High stakes", "Apuesta fuerte"),
    "objective.high-stakes.hint": (
        "An expedition with 2+ handshakes scoring above 0.",
        "Una expedición con 2 o más apretones que puntúe sobre 0.",
    ),
    "objective.specialist": ("Specialist", "Especialista"),
    "objective.specialist.hint": (
        "One expedition scoring 40 or more.",
        "Una expedición que puntúe 40 o más.",
    ),
    "objective.summit": ("Summit", "Cumbre"),
    "objective.summit.hint": (
        "An expedition holding its 8, 9 and 10.",
        "Una expedición con su 8, 9 y 10.",
    ),
    "objective.base-camp": ("Base camp", "Campamento base"),
    "objective.base-camp.hint": (
        "An expedition holding its 2, 3 and 4.",
        "Una expedición con su 2, 3 y 4.",
    ),
    "objective.straight": ("Straight", "Escalera"),
    "objective.straight.hint": (
        "An expedition with five consecutive numbers.",
        "Una expedición con cinco números seguidos.",
    ),
    "objective.thrift": ("Thrift", "Austeridad"),
    "objective.thrift.hint": (
        "Discard at most 3 cards this round.",
        "Descarta como mucho 3 cartas esta ronda.",
    ),
    "objective.minimalist": ("Minimalist", "Minimalista"),
    "objective.minimalist.hint": (
        "Start exactly 3 expeditions, each scoring above 0.",
        "Empieza exactamente 3 expediciones, todas sobre 0.",
    ),
    "objective.rivalry": ("Rivalry", "Rivalidad"),
    "objective.rivalry.hint": (
        "Outscore your opponent in at least 3 colours.",
        "Supera a tu rival en al menos 3 colores.",
    ),
    "objective.investor": ("Investor", "Inversor"),
    "objective.investor.hint": (
        "Play 3 or more handshakes in total.",
        "Juega 3 apretones de manos o más en total.",
    ),
    # -- mixups -------------------------------------------------------------------------------
    "mixup.label": ("Mixup", "Sorpresa"),
    "mixup.announce": (
        "Mixup! The rule card turns face up:",
        "¡Sorpresa! Se revela la carta de regla:",
    ),
    "mixup.rest": (
        "It applies to both players for the rest of this round, scoring included.",
        "Se aplica a los dos jugadores el resto de la ronda, puntuación incluida.",
    ),
    "mixup.dismiss": ("Got it", "Entendido"),
    "mixup.short-road": ("Short Road", "Camino corto"),
    "mixup.short-road.hint": (
        "The bonus needs 2 fewer cards.",
        "El bono pide 2 cartas menos.",
    ),
    "mixup.dear-roads": ("Dear Roads", "Caminos caros"),
    "mixup.dear-roads.hint": (
        "Every expedition costs 10 more.",
        "Cada expedición cuesta 10 más.",
    ),
    "mixup.open-piles": ("Open Piles", "Pilas abiertas"),
    "mixup.open-piles.hint": (
        "Every discard pile unlocks, and Sabotage no longer shuts piles.",
        "Todas las pilas se desbloquean y el Sabotaje ya no cierra pilas.",
    ),
    "mixup.big-bonus": ("Big Bonus", "Gran bono"),
    "mixup.big-bonus.hint": ("The bonus is doubled.", "El bono se duplica."),
    "mixup.safety-net": ("Safety Net", "Red de seguridad"),
    "mixup.safety-net.hint": (
        "Handshakes no longer multiply a loss.",
        "Los apretones ya no multiplican una pérdida.",
    ),
    "mixup.golden-tens": ("Golden Tens", "Dieces de oro"),
    "mixup.golden-tens.hint": ("A 10 counts 15.", "Un 10 vale 15."),
    # -- round end and match end --------------------------------------------------------------
    "roundend.heading": ("Round {round} is over", "Fin de la ronda {round}"),
    "roundend.next": ("Next round", "Siguiente ronda"),
    "breakdown.colour": ("Expedition", "Expedición"),
    "breakdown.cards": ("Cards", "Cartas"),
    "breakdown.sum": ("Sum", "Suma"),
    "breakdown.cost": ("−Cost", "−Coste"),
    "breakdown.multiplier": ("×", "×"),
    "breakdown.bonus": ("+Bonus", "+Bono"),
    "breakdown.score": ("Score", "Puntos"),
    "breakdown.objectives": ("Objectives", "Objetivos"),
    "breakdown.achieved": ("achieved", "conseguido"),
    "breakdown.missed": ("missed", "fallado"),
    "breakdown.none": ("none", "ninguno"),
    "breakdown.round": ("Round score", "Puntos de la ronda"),
    "breakdown.total": ("Match total", "Total de la partida"),
    "breakdown.caption": ("{name}'s round {round}", "Ronda {round} de {name}"),
    "matchend.heading": ("The match is over", "Fin de la partida"),
    "matchend.winner": ("{name} wins!", "¡Gana {name}!"),
    "matchend.draw": ("It's a draw!", "¡Empate!"),
    "matchend.again": ("Play again", "Jugar otra vez"),
    "matchend.new": ("New match", "Nueva partida"),
    "matchend.rounds": ("Round by round", "Ronda a ronda"),
    # -- the log ------------------------------------------------------------------------------
    "log.heading": ("Move log", "Registro de jugadas"),
    "log.empty": ("No moves yet.", "Aún no hay jugadas."),
    "log.play": ("{name} played {card}", "{name} jugó {card}"),
    "log.discard": ("{name} discarded {card}", "{name} descartó {card}"),
    "log.draw.deck": ("{name} drew from the deck", "{name} robó del mazo"),
    "log.draw.deck.card": ("{name} drew {card} from the deck", "{name} robó {card} del mazo"),
    "log.draw.pile": (
        "{name} took {card} from the {colour} pile",
        "{name} tomó {card} de la pila {colour}",
    ),
    "log.draw.pile.nocard": (
        "{name} drew from the {colour} pile",
        "{name} robó de la pila {colour}",
    ),
    "log.undo": ("{name} took the move back", "{name} deshizo la jugada"),
    "log.radio": ("{name} used Radio", "{name} usó la Radio"),
    "log.airlift": ("{name} used Airlift", "{name} usó el Puente aéreo"),
    "log.sabotage": ("{name} shut the {colour} pile", "{name} cerró la pila {colour}"),
    "log.pick-job": ("{name} picked a job", "{name} eligió un oficio"),
    "log.next-round": ("A new round begins", "Empieza una nueva ronda"),
    "log.mixup": ("Mixup: {mixup}", "Sorpresa: {mixup}"),
    "log.other": ("{name}: {type}", "{name}: {type}"),
    # -- the rules page (in a player's words) ---------------------------------------------------
    "rules.heading": ("How to play", "Cómo se juega"),
    "rules.goal.h": ("The goal", "El objetivo"),
    "rules.goal": (
        "Two players mount expeditions in five colours. Each colour is scored on its own, and "
        "your round score is the sum. Whoever has the most points after all the rounds wins.",
        "Dos jugadores organizan expediciones en cinco colores. Cada color se puntúa por "
        "separado y tu puntuación de la ronda es la suma. Gana quien tenga más puntos al "
        "terminar todas las rondas.",
    ),
    "rules.deck.h": ("The cards", "Las cartas"),
    "rules.deck": (
        "Each colour has the numbers 2 to 10 and three handshakes: 60 cards in all "
        "(72 with the sixth colour). Each of you holds 8 cards.",
        "Cada color tiene los números del 2 al 10 y tres apretones de manos: 60 cartas en "
        "total (72 con el sexto color). Cada jugador tiene 8 cartas en la mano.",
    ),
    "rules.turn.h": ("Your turn", "Tu turno"),
    "rules.turn": (
        "First play or discard exactly one card, then draw exactly one: from the deck, or the "
        "top card of any discard pile except the one you just discarded onto.",
        "Primero juega o descarta exactamente una carta y luego roba exactamente una: del mazo "
        "o de la parte superior de cualquier pila de descarte, salvo la pila en la que "
        "acabas de descartar.",
    ),
    "rules.play.h": ("Playing a card", "Jugar una carta"),
    "rules.play": (
        "A card goes onto your own expedition of its colour. Numbers must go up, but they need "
        "not be consecutive: after a red 4 you can play any higher red card, never again a "
        "handshake, a 2 or a 3. Handshakes are bets, played before any number of that colour.",
        "La carta va a tu propia expedición de su color. Los números deben subir, pero no "
        "hace falta que sean consecutivos: si juegas un 4 rojo, después podrás jugar cualquier "
        "carta roja mayor, pero ya no un apretón de manos, el 2 ni el 3. Los apretones son "
        "inversiones y se juegan antes de cualquier número de ese color.",
    ),
    "rules.end.h": ("End of a round", "Fin de la ronda"),
    "rules.end": (
        "The round ends the instant the last card is drawn from the deck. Cards left in hand "
        "do not count. A standard match is three rounds, and the starting player alternates.",
        "La ronda termina en cuanto se roba la última carta del mazo. Las cartas que quedan "
        "en la mano no cuentan. Una partida normal dura tres rondas y el jugador que empieza "
        "se va alternando.",
    ),
    "rules.score.h": ("Scoring", "Puntuación"),
    "rules.score": (
        "An expedition you never started scores 0. Otherwise add up its numbers and subtract "
        "20, the cost of the expedition. One handshake doubles the result, two triple it, three "
        "quadruple it, even when it is a loss. An expedition of 8 or more cards earns +20 more, "
        "added after the multiplier.",
        "Una expedición que no empezaste vale 0. Si no, suma sus números y resta 20, lo que "
        "cuesta la expedición. Un apretón de manos duplica el resultado, dos lo triplican y "
        "tres lo cuadruplican, también cuando es negativo. Una expedición de 8 cartas o más "
        "gana 20 puntos extra, sumados después del multiplicador.",
    ),
    "rules.examples.h": ("Examples", "Ejemplos"),
    "rules.example1": (
        "2, 3, 7, 8, 10: (30 − 20) × 1 = 10 points.",
        "2, 3, 7, 8, 10: (30 − 20) × 1 = 10 puntos.",
    ),
    "rules.example2": (
        "Two handshakes and 4, 5, 6, 7, 8, 10: (40 − 20) × 3 + 20 = 80 points.",
        "Dos apretones y 4, 5, 6, 7, 8, 10: (40 − 20) × 3 + 20 = 80 puntos.",
    ),
    "rules.example3": (
        "One handshake and 4, 6, 7: (17 − 20) × 2 = −6 points.",
        "Un apretón y 4, 6, 7: (17 − 20) × 2 = −6 puntos.",
    ),
    "rules.options.h": ("Options", "Opciones"),
    "rules.options": (
        "All options are off by default. Jobs: before the first deal each of you picks one of "
        "two jobs, shown to both. Skills: each discard earns a charge; before your play you may "
        "spend them on Radio (1), Airlift (2) or Sabotage (3), each once a turn; charges are "
        "lost at the end of the round. Objectives: two secret goals each round, +25 each, "
        "revealed at scoring. Endgame mixups: in the last round, when 8 cards are left in the "
        "deck, a rule card flips for the rest of the round; it never forbids a move you could "
        "otherwise make.",
        "Todas las opciones están desactivadas al principio. Oficios: antes del primer reparto "
        "cada uno elige uno de dos oficios, visible para ambos. Habilidades: cada descarte da "
        "una carga; antes de jugar puedes gastarlas en Radio (1), Puente aéreo (2) o Sabotaje "
        "(3), cada una una vez por turno; las cargas se pierden al acabar la ronda. Objetivos: "
        "dos metas secretas cada ronda, +25 cada una, reveladas al puntuar. Sorpresas finales: "
        "en la última ronda, cuando quedan 8 cartas en el mazo, se revela una carta de regla "
        "para el resto de la ronda; nunca prohíbe un movimiento que podrías hacer.",
    ),
    "rules.credits.h": ("Credits", "Créditos"),
    "rules.credits": (
        "Lost Cities is a game by Reiner Knizia, published by Kosmos. This is a "
        "non-commercial fan implementation of the rules; no artwork or text from the "
        "published game is used. All card faces, symbols and texts in this app are our own.",
        "Lost Cities es un juego de Reiner Knizia, publicado por Kosmos. Esta es una "
        "implementación no comercial de las reglas hecha por aficionados; no se usa ninguna "
        "ilustración ni texto del juego publicado. Todas las cartas, símbolos y textos de "
        "esta aplicación son nuestros.",
    ),
    # -- online: lobby, waiting room, connection --------------------------------------------
    "lobby.heading": ("Play online", "Jugar en línea"),
    "lobby.intro": (
        "Two devices, one match. Create a room and give its code to your opponent, or join"
        " theirs.",
        "Dos dispositivos, una partida. Crea una sala y pasa su código a tu rival, o únete a"
        " la suya.",
    ),
    "lobby.create.heading": ("Host a match", "Organizar una partida"),
    "lobby.create.hint": (
        "Your page runs the match with the options you chose on the setup screen.",
        "Tu página lleva la partida con las opciones que elegiste al prepararla.",
    ),
    "lobby.create": ("Create room", "Crear sala"),
    "lobby.join.heading": ("Join a match", "Unirse a una partida"),
    "lobby.code": ("Room code", "Código de sala"),
    "lobby.code.hint": ("6 characters, e.g. K7P2QX", "6 caracteres, p. ej. K7P2QX"),
    "lobby.name": ("Your name", "Tu nombre"),
    "lobby.name.default": ("Guest", "Invitado"),
    "lobby.join": ("Join room", "Unirse"),
    "lobby.joining.from": ("Join {name}'s room", "Unirse a la sala de {name}"),
    "lobby.joining.room": ("Join room {code}", "Unirse a la sala {code}"),
    "lobby.joining.intro": (
        "Say your name and join: the match starts as soon as you are in.",
        "Di tu nombre y únete: la partida empieza en cuanto entres.",
    ),
    "lobby.joining.host": ("Host a match of my own instead", "Prefiero organizar mi partida"),
    "lobby.back": ("Back", "Volver"),
    "lobby.offline": (
        "You are offline. Playing online needs a network connection (pass-and-play works"
        " offline).",
        "No hay conexión. Jugar en línea necesita red (la partida en un solo dispositivo"
        " funciona sin ella).",
    ),
    "lobby.nobroker": (
        "The game server ({broker}) can't be reached. Playing online needs a network"
        " connection to it.",
        "No se puede contactar con el servidor de la partida ({broker}). Jugar en línea"
        " necesita conexión con él.",
    ),
    "lobby.badcode": ("That is not a room code: {reason}.", "Ese no es un código de sala:"
                      " {reason}."),
    "waiting.host.heading": ("Room {code}", "Sala {code}"),
    "waiting.host.intro": (
        "Give your opponent this code, or send them the link or the QR code.",
        "Pasa este código a tu rival, o envíale el enlace o el código QR.",
    ),
    "waiting.code": ("Room code", "Código de sala"),
    "waiting.link": ("Join link", "Enlace para unirse"),
    "waiting.qr": ("QR code of the join link", "Código QR del enlace para unirse"),
    "waiting.share": ("Share…", "Compartir…"),
    "waiting.copy": ("Copy link", "Copiar enlace"),
    "waiting.copied": ("Link copied.", "Enlace copiado."),
    "waiting.host.wait": ("Waiting for your opponent to join…", "Esperando a que se una tu"
                          " rival…"),
    "waiting.host.opening": ("Opening the room…", "Abriendo la sala…"),
    "waiting.host.taken": (
        "The code was taken: trying another one.", "El código estaba ocupado: probando otro.",
    ),
    "waiting.host.held": (
        "The room's code is still held (is the room open in another tab?). Retrying…",
        "El código de la sala sigue ocupado (¿está abierta en otra pestaña?). Reintentando…",
    ),
    "waiting.guest.heading": ("Joining room {code}", "Uniéndose a la sala {code}"),
    "waiting.guest.wait": ("Connecting to the host…", "Conectando con el anfitrión…"),
    "waiting.guest.noroom": (
        "No open room {code} was found yet. Check the code with your opponent; this page"
        " keeps trying.",
        "Aún no se encuentra la sala {code} abierta. Comprueba el código con tu rival; esta"
        " página sigue intentándolo.",
    ),
    "waiting.leave": ("Leave", "Salir"),
    "status.connected": ("{name} is connected", "{name} está conectado"),
    "status.reconnecting": ("Reconnecting to {name}…", "Reconectando con {name}…"),
    "status.lost": (
        "{name} has lost the connection. The match waits: it resumes when they are back.",
        "{name} ha perdido la conexión. La partida espera y seguirá cuando vuelva.",
    ),
    "status.opponent": ("Your opponent", "Tu rival"),
    "status.room": ("Room {code}", "Sala {code}"),
    "status.leave": ("Leave room", "Salir de la sala"),
    "status.reload": ("Reload the page", "Recargar la página"),
    "problem.stopped": (
        "The match was stopped: {message} ({check}). The other page sent something that fails the"
        " fair-play checks; your save keeps the evidence.",
        "La partida se ha detenido: {message} ({check}). La otra página envió algo que no pasa"
        " las comprobaciones de juego limpio; tu partida guardada conserva la prueba."),
    "problem.stopped-own": (
        "The match was stopped: {message} ({check}). This page met an error of its own; your save"
        " keeps the evidence.",
        "La partida se ha detenido: {message} ({check}). Esta página tuvo un error propio; tu"
        " partida guardada conserva la prueba."),
    "problem.malformed": ("The host sent a malformed message ({reason}): ignored.",
                          "El anfitrión envió un mensaje mal formado ({reason}): ignorado."),
    "problem.before-welcome": ("The host sent a message before its welcome: ignored.",
                               "El anfitrión envió un mensaje antes de su bienvenida: ignorado."),
    "problem.unexpected": ("The host sent a {kind} message: ignored.",
                           "El anfitrión envió un mensaje «{kind}»: ignorado."),
    "problem.host-refused": ("The host refused: {message}", "El anfitrión se negó: {message}"),
    "problem.turned-away": ("The host's room does not let this page in: {message}",
                            "La sala del anfitrión no deja entrar a esta página: {message}"),
    "problem.other-name": ("The host's welcome names this player otherwise: ignored.",
                           "La bienvenida del anfitrión da otro nombre a este jugador: ignorada."),
    "problem.not-ready": ("This page is not ready for the match yet.",
                          "Esta página aún no está lista para la partida."),
    "problem.other-match": ("The host's room holds another match than this page: ignored.",
                            "La sala del anfitrión tiene otra partida que esta página: ignorada."),
    "problem.flooded": ("The host sent too many messages: connecting again.",
                        "El anfitrión envió demasiados mensajes: conectando de nuevo."),
    "problem.rematch-malformed": ("it is malformed ({reason})", "está mal formado ({reason})"),
    "problem.rematch-mid-match": ("this match is still on", "esta partida sigue en juego"),
    "problem.rematch-other-match": ("it follows match {match}, this page holds match {current}",
                                    "sigue a la partida {match}, esta página tiene la {current}"),
    "problem.rematch-other-series": ("it belongs to another series",
                                     "pertenece a otra serie"),
    "problem.rematch-disagree": ("the two pages' series disagree ({reason})",
                                 "las series de las dos páginas no coinciden ({reason})"),
    "problem.reload": ("The host runs another version of the game: reload the page to update.",
                       "El anfitrión usa otra versión del juego: recarga la página para"
                       " actualizarla."),
    "status.leave.confirm": (
        "Leave this online match for good? It can't be finished without you.",
        "¿Dejar esta partida en línea para siempre? No se podrá terminar sin ti.",
    ),
    "status.leave.yes": ("Leave", "Salir"),
    "status.stay": ("Stay", "Quedarme"),
    "status.host.closed": (
        "{name} closed the game, so the room is closed. The match waits: it resumes here when"
        " they open the game again.",
        "{name} ha cerrado el juego y la sala está cerrada. La partida espera y seguirá aquí"
        " cuando lo vuelva a abrir.",
    ),
    "status.host.left": (
        "{name} left the room for good: this match is over.",
        "{name} ha dejado la sala para siempre: esta partida ha terminado.",
    ),
    "status.owed": ("Waiting for {name}'s page: {clock}",
                    "Esperando a la página de {name}: {clock}"),
    "status.offer": (
        "{name}'s page has sent nothing for {clock} while the match waits on it. End the"
        " match, recorded as abandoned by {name}, or keep waiting?",
        "La página de {name} no ha enviado nada en {clock} mientras la partida la espera."
        " ¿Terminar la partida, registrada como abandonada por {name}, o seguir esperando?",
    ),
    "status.offer.end": ("End it: {name} abandoned", "Terminarla: {name} abandonó"),
    "status.offer.wait": ("Keep waiting", "Seguir esperando"),
    "abandoned.ended": (
        "The match was ended: {name}'s page stopped answering, so it is recorded as abandoned"
        " by {name}.",
        "La partida ha terminado: la página de {name} dejó de responder, así que queda"
        " registrada como abandonada por {name}.",
    ),
    "problem.unsaved": (
        "This match can't go on on this device: it could not be saved ({reason}), so nothing"
        " was sent. Free some of this browser's storage, then reload the page to resume.",
        "Esta partida no puede seguir en este dispositivo: no se pudo guardar ({reason}), así"
        " que no se envió nada. Libera espacio de almacenamiento del navegador y recarga la"
        " página para continuar.",
    ),
    "problem.moved": (
        "This match moved to another tab: this tab sends nothing more.",
        "Esta partida pasó a otra pestaña: esta ya no envía nada.",
    ),
    "tab.claiming": ("Opening room {code}…", "Abriendo la sala {code}…"),
    "tab.elsewhere.heading": ("This match is open in another tab",
                              "Esta partida está abierta en otra pestaña"),
    "tab.elsewhere.text": (
        "Room {code} runs in another tab of this browser. Play on there, or play it in this"
        " tab: the other one then stops.",
        "La sala {code} está abierta en otra pestaña de este navegador. Sigue allí, o juega en"
        " esta: la otra se detendrá.",
    ),
    "tab.take": ("Play it in this tab", "Jugar en esta pestaña"),
    "tab.moved.heading": ("This match moved to another tab",
                          "Esta partida pasó a otra pestaña"),
    "tab.moved.text": (
        "Room {code} now runs in another tab of this browser: this tab has disconnected and"
        " sends nothing more.",
        "La sala {code} sigue ahora en otra pestaña de este navegador: esta se ha"
        " desconectado y ya no envía nada.",
    ),
    "tab.take.back": ("Take it back", "Recuperarla aquí"),
}

RULES_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rules.goal.h", ("rules.goal",)),
    ("rules.deck.h", ("rules.deck",)),
    ("rules.turn.h", ("rules.turn",)),
    ("rules.play.h", ("rules.play",)),
    ("rules.end.h", ("rules.end",)),
    ("rules.score.h", ("rules.score",)),
    ("rules.examples.h", ("rules.example1", "rules.example2", "rules.example3")),
    ("rules.options.h", ("rules.options",)),
    ("rules.credits.h", ("rules.credits",)),
)
"""The Rules page: (heading key, paragraph keys) in reading order."""


LANG_KEY = "lostcities.lang"
"""The browser's storage key of the language the player chose."""


def pick_language(preferred: str | None) -> str:
    """The catalogue language for a browser language tag such as ``"es-AR"`` or ``"en-GB"``."""
    if preferred:
        base = preferred.strip().lower().replace("_", "-").split("-")[0]
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


def t(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang`, formatted with `values`.

    Raises KeyError for an unknown key (a bug, caught by the tests); an unknown language
    falls back to English. A ``count`` of 1 takes the key's ``.one`` form where it has one.
    """
    return message(MESSAGES, lang, key, values)


def worded_name(name: str, lang: str) -> str:
    """A player's name as shown in `lang`: the computer's, stored in the language its match
    began in ("Computer (hard)"), in `lang`'s words; any other name as it is."""
    for key in ("bot.name.easy", "bot.name.medium", "bot.name.hard"):
        if name in MESSAGES[key]:
            return t(lang, key)
    return name


def message(messages: dict[str, tuple[str, str]], lang: str, key: str,
            values: dict[str, object]) -> str:
    """`key` of `messages` in `lang`, formatted with `values`: its ``.one`` form, when the
    catalogue has one, for a ``count`` of 1 ("1 card", not "1 cards")."""
    if values.get("count") == 1 and f"{key}.one" in messages:
        key = f"{key}.one"
    english, spanish = messages[key]
    text = spanish if lang == "es" else english
    return text.format(**values) if values else text
