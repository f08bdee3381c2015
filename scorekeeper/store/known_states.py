"""What each match was when this host last entered a round of it, shared by the app's processes,
so that the next round can be decided without reading its match first.

On PostgreSQL a new round costs two round trips: the match read, then the one statement that
claims the match and stores the round (`scorekeeper.store.round_at_once`). The process that
stores a round leaves the match's state as it stands then here, and the next round entered, in
whichever process, is decided on that; any other change (an edit, a deletion, a new edit token)
forgets it, so that the next round reads the match as changed. Nothing here is trusted: the
statement's claim names the version and the edit token hash that the round was decided on, so
a state that another change has overtaken (on another server, or between two requests here)
stores nothing, and the round is entered again on the match read afresh, its token checked
against the stored one (`scorekeeper.store.rounds.OutdatedState`).

The states lie in memory shared by every process forked from the one that made it: gunicorn's
master loads the app, then forks its workers. A match's state takes the slot its id hashes to,
written whole, with a digest, by whichever process knew it last, and read without a lock: a slot
caught half written, or left so by a process that died while writing it, fails its digest and
counts as empty. Matches whose ids share a slot take turns in it.
"""

from __future__ import annotations

import hashlib
import mmap
import pickle
import struct
import zlib
from dataclasses import replace

from flask import Flask, current_app
from sqlalchemy import make_url

from scorekeeper.store.match_state import MatchState
from scorekeeper.store.round_at_once import DIALECTS

EXTENSION_KEY = "scorekeeper.known_states"
# Room for the largest match the rules allow, six sides counting their cards by kind over twelve
# rounds: under 12 kB. A state that does not fit is not kept, and its next round reads it.
SLOT_SIZE = 16 * 1024
_DIGEST_SIZE = 16
_LENGTHS = struct.Struct("<IH")  # of the slot's body, and of the key at its start
_HEADER_SIZE = _DIGEST_SIZE + _LENGTHS.size


class SharedSlots:
    """Values by key, in slots of memory shared with the processes forked after it was made.
    A value may be lost whenever another key's takes its slot."""

    def __init__(self, slots: int, slot_size: int = SLOT_SIZE) -> None:
        self.slots = slots
        self.slot_size = slot_size
        self._memory = mmap.mmap(-1, slots * slot_size)  # anonymous, and shared with children

    def get(self, key: bytes) -> bytes | None:
        """Return the value last put under `key`, if its slot still holds it whole."""
        start = self._slot(key)
        header = self._memory[start : start + _HEADER_SIZE]
        body_length, key_length = _LENGTHS.unpack_from(header, _DIGEST_SIZE)
        if body_length > self.slot_size - _HEADER_SIZE:
            return None  # torn: no whole slot says so
        body_start = start + _HEADER_SIZE
        body = self._memory[body_start : body_start + body_length]
        if _digest(body) != header[:_DIGEST_SIZE] or body[:key_length] != key:
            return None
        return body[key_length:]

    def put(self, key: bytes, value: bytes) -> None:
        """Put `value` under `key`, in place of whatever its slot held; a value too big for a
        slot leaves it empty, so that no older value of the key stays."""
        body = key + value
        self._write(key, body if _HEADER_SIZE + len(body) <= self.slot_size else b"")

    def discard(self, key: bytes) -> None:
        """Leave the slot of `key` empty."""
        self._write(key, b"")

    def _write(self, key: bytes, body: bytes) -> None:
        header = _digest(body) + _LENGTHS.pack(len(body), len(key))
        start = self._slot(key)
        self._memory[start : start + _HEADER_SIZE + len(body)] = header + body

    def _slot(self, key: bytes) -> int:
        return zlib.crc32(key) % self.slots * self.slot_size


def _digest(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=_DIGEST_SIZE).digest()


class KnownStates:
    """Matches' states by public id, as this host last knew them."""

    def __init__(self, slots: int) -> None:
        self._slots = SharedSlots(slots)

    def recall(self, public_id: str) -> MatchState | None:
        value = self._slots.get(public_id.encode())
        # Only this app's processes can write the memory it unpickles.
        state: MatchState | None = None if value is None else pickle.loads(value)
        return state

    def remember(self, state: MatchState) -> None:
        recalled = replace(state, recalled=True)
        self._slots.put(state.public_id.encode(), pickle.dumps(recalled, pickle.HIGHEST_PROTOCOL))

    def forget(self, public_id: str) -> None:
        self._slots.discard(public_id.encode())


def init_app(app: Flask) -> None:
    """Keep matches' states where the database stores a new round in one statement: elsewhere
    the read that a known state spares costs no round trip."""
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() in DIALECTS and app.config["KNOWN_MATCH_STATES"]:
        app.extensions[EXTENSION_KEY] = KnownStates(app.config["KNOWN_MATCH_STATES"])


def recalled_match(public_id: str) -> MatchState | None:
    """Return the match with this public id as this host last knew it, if it does."""
    known = _known_states()
    return None if known is None else known.recall(public_id)


def remember(state: MatchState) -> None:
    """Keep the match's state, as a round just stored left it, for the next round entered."""
    known = _known_states()
    if known is not None:
        known.remember(state)


def forget(public_id: str) -> None:
    """Keep no state of the match, which a change has just moved on from the one known."""
    known = _known_states()
    if known is not None:
        known.forget(public_id)


def _known_states() -> KnownStates | None:
    known: KnownStates | None = current_app.extensions.get(EXTENSION_KEY)
    return known
