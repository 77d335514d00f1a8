"""The history of finished matches kept on this device, under ``lostcities.history``.

The document is webui/features/history.py's (``{"app": "lostcities-history", "version": 1,
"records": [...]}``), read once when first needed. A record that does not hold up is set aside
(webui/kernel/setaside.py: ``lostcities.history.set-aside.<stamp>``, a history document of the bad
records, so it can be imported again once mended) and the rest is kept; a document that can't
be read at all is set aside whole. Either way the player is told once (`take_notice`), and the
page goes on. Browser-free: the storage is handed in (localStorage in the page).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Final

from webui.features.history import (
    APP, VERSION, Imported, MatchRecord, Notice, dump, export_name, import_text, load, merge,
)
from webui.kernel.setaside import Storage, set_aside

HISTORY_KEY: Final = "lostcities.history"


def _aside_text(bad: Sequence[str]) -> str:
    """A history document holding the bad records' texts (each one JSON already)."""
    head = json.dumps({"app": APP, "version": VERSION})[:-1]
    return head + ', "records": [' + ", ".join(bad) + "]}"


class HistoryStore:
    """The history on this device: its records, oldest first, read at first use."""

    def __init__(self, storage: Storage, stamp: Callable[[], int],
                 log: Callable[[str], object]) -> None:
        self.storage = storage
        self._stamp = stamp
        self._log = log
        self._records: list[MatchRecord] | None = None
        self._notice: Notice | None = None

    @property
    def records(self) -> list[MatchRecord]:
        """Every record kept, oldest first (the stored history read and sorted out once)."""
        if self._records is None:
            stored = self.storage.getItem(HISTORY_KEY)
            loaded = load(stored if isinstance(stored, str) else None)
            self._records = loaded.records
            if loaded.notice is not None:
                self._notice = loaded.notice
                whole = loaded.notice.code == "history-set-aside"
                self._keep(loaded.set_aside[0] if whole else _aside_text(loaded.set_aside))
        return self._records

    def take_notice(self) -> Notice | None:
        """What the player must be told about the history since the last call, once."""
        notice, self._notice = self._notice, None
        return notice

    def find(self, record_id: str) -> MatchRecord | None:
        """The record with this id, if kept."""
        return next((r for r in self.records if r.id == record_id), None)

    def add(self, record: MatchRecord) -> None:
        """Keep `record` (once: the same match is never kept twice)."""
        self._records = merge(self.records, (record,))
        self._write()

    def import_file(self, text: str) -> Imported:
        """Merge an exported file's records; ValueError (nothing changed) if it is not a
        history of this app. Its bad records are set aside, with a notice."""
        imported = import_text(self.records, text)
        self._records = imported.records
        if imported.set_aside:
            self._notice = imported.notice
            self._keep(_aside_text(imported.set_aside))
        else:
            self._write()
        return imported

    def export(self, date: str) -> tuple[str, str]:
        """(file name, text) of the whole history, exported on the UTC `date`."""
        return export_name(date), dump(self.records)

    def _keep(self, aside: str) -> None:
        """Set `aside` apart (it takes the key's place for a moment), then write the good
        records back under the key."""
        set_aside(self.storage, HISTORY_KEY, aside, self._stamp(), self._log)
        self._write()

    def _write(self) -> None:
        records = self._records or []
        if records:
            self.storage.setItem(HISTORY_KEY, dump(records))
        else:
            self.storage.removeItem(HISTORY_KEY)
