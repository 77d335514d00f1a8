"""The online screens' words, in English and Spanish (same shape as webui/i18n.py).

Kept beside the online code so the two modules can change apart; `t` falls back to English
for a language it does not know.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
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
    "status.leave.confirm": (
        "Leave this online match for good? It can't be finished without you.",
        "¿Dejar esta partida en línea para siempre? No se podrá terminar sin ti.",
    ),
    "status.leave.yes": ("Leave", "Salir"),
    "status.stay": ("Stay", "Quedarme"),
}

LANGS = ("en", "es")


def t(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang` (English if unknown), formatted with `values`."""
    pair = MESSAGES[key]
    text = pair[LANGS.index(lang)] if lang in LANGS else pair[0]
    return text.format(**values) if values else text
