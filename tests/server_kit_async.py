"""An in-process table harness: the table manager on an asyncio loop with probe
connections, so every message can be checked against the engine at the very
moment it is sent (used by the no-leak test)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from hucklebuck.cards import Card
from hucklebuck.packs import GameKind
from hucklebuck.server.catalog import read_table_request
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.manager import TableManager
from hucklebuck.server.protocol import ClientMessage
from hucklebuck.server.store import SQLiteStore
from hucklebuck.server.tables import ServerTable
from hucklebuck.server.views import hand_log

_DISPLAY = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♣♦♥♠])")
_CODE = re.compile(r"\b([2-9TJQKA][CDHS])\b")
_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_in(message: Any) -> set[str]:
    """Every card a message names: in card fields, and in any text (``10♥`` or ``TH``)."""
    found: set[str] = set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str):
            if key in ("card", "cards", "hand") and re.fullmatch(r"[2-9TJQKA][CDHS]", value):
                found.add(value)
            for rank, suit in _DISPLAY.findall(value):
                found.add(("T" if rank == "10" else rank) + _SUITS[suit])
            found.update(_CODE.findall(value))

    walk(message)
    return found


def hidden_from(game: Any, seat: int | None) -> set[str]:
    """Cards ``seat`` (``None``: a spectator) may not see now, from the engine's full state."""
    zones = game.card_zones()
    hidden: set[Card] = set()
    for name, cards in zones.items():
        if name != "played":
            hidden |= set(cards)
    if seat is not None:
        hidden -= set(game.hand(seat))
    public: set[Card] = set()
    if game.kind is GameKind.DEERPARK:
        public.add(game.turned)  # everyone saw it turned up
    if game.kind is GameKind.BUCKEM:
        for s in range(game.players):
            o = game.observation(s)
            public.add(o.upcard)
            if o.swapped_upcard is not None:
                public.add(o.swapped_upcard)
            public.update(c for c in o.scare if c is not None)
    return {c.code for c in hidden - public}


@dataclass(eq=False)
class Probe:
    """A connection that records each message with the cards hidden from it at that moment."""

    table: ServerTable
    seat: int | None
    human: bool = False
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    messages: list[tuple[dict[str, Any], set[str]]] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    errors: list[str] = field(default_factory=list)

    def close(self, code: int, reason: str) -> None:
        self.errors.append(f"closed {code}: {reason}")

    def send_text(self, text: str) -> None:
        message = json.loads(text)
        self.messages.append((message, hidden_from(self.table.game, self.seat)))
        if message["type"] != "state":
            return
        view = message["view"]
        if view["log"] != hand_log(self.table.game, self.table.narrator.names):  # the kept log is right
            self.errors.append(f"log differs at seq {message['seq']}")
        if view["game_over"]:
            self.done.set()
        elif self.human and view["to_act"] == self.seat and view["legal"]:
            move = self.rng.choice(view["legal"])
            action = move["id"] if self.rng.random() < 0.7 else move["text"]
            msg = ClientMessage("act", message["seq"], action)
            asyncio.get_running_loop().call_soon(self.table.client_message, self, msg)


async def play_table(
    body: dict[str, Any], *, spectators: int = 1, seed: int = 0, **cfg: Any
) -> tuple[ServerTable, list[Probe]]:
    """Create a table, connect a probe per human seat plus spectators, play until the game is over."""
    config = ServerConfig(**({"db": ":memory:", "bot_pause": 0.0, "deal_pause": 0.0, "grace": 60.0} | cfg))
    manager = TableManager(config, SQLiteStore(":memory:"))
    manager.start()
    try:
        table, _tokens = manager.create(read_table_request(body, config.max_name))
        probes = [
            Probe(table, i, human=True, rng=random.Random(seed * 100 + i))
            for i, s in enumerate(table.seats)
            if s.kind == "human"
        ]
        probes += [Probe(table, None) for _ in range(spectators)]
        for p in probes:
            table.join(p)
        await asyncio.wait_for(probes[-1].done.wait(), 120)
        return table, probes
    finally:
        manager.close()
