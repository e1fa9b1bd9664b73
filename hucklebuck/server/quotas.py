"""Who may create how many tables: a creation rate and a quota of live tables per address,
and a bound of their own for tables nobody sits at.

One client must not fill the server with tables (each is played until it ends, and the
server holds ``--max-tables`` at most), so ``POST /api/tables`` is checked against:

* **a creation rate per address** (``create_rate`` a second on average, ``create_burst``
  at once), like the WebSocket connection rate;
* **a quota of live tables per address** (``tables_per_address``): tables created from
  that address and not over yet;
* **all-computer tables apart** (``max_computer_tables`` at once on the server, and a
  Buck 'Em session of at most ``computer_hands`` rounds), since nobody is waiting on them
  and they play on by themselves.

An address is the client's IP address as uvicorn reports it (behind a proxy, the
forwarded one where uvicorn trusts the proxy); an IPv6 address counts by its /64
network, which one client usually holds whole.  Which address created which table is
kept in memory only (never stored): after a restart the quotas start afresh.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping
from typing import Protocol

from .catalog import TableRequest
from .config import ServerConfig
from .protocol import ProtocolError
from .tables import TableRefused

__all__ = ["TableQuotas", "address_key"]


class _Live(Protocol):
    """What the quotas read of a table."""

    @property
    def over(self) -> bool:
        """Whether it has ended."""
        ...


def address_key(host: str) -> str:
    """The key an address's quotas are kept under: the address, or its /64 network for IPv6."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class TableQuotas:
    """The checks of the module docstring, for one server process."""

    def __init__(self, config: ServerConfig, take: Callable[[object], bool]) -> None:
        """Quotas of ``config``; ``take(key)`` takes one creation from the key's rate bucket."""
        self.config = config
        self.take = take
        self.owned: dict[str, list[str]] = {}
        """Table ids created from each address key (pruned of tables over or gone at each check)."""
        self.computer_only: list[str] = []
        """Ids of the all-computer tables created since the start (pruned likewise)."""

    def check(self, host: str, request: TableRequest, tables: Mapping[str, _Live]) -> None:
        """Raise :class:`TableRefused` if a table of ``request`` may not be created from ``host``
        now (:class:`ProtocolError` if it asks for too long an all-computer session);
        ``tables`` are the server's live tables by id."""
        cfg = self.config
        nobody = all(s.kind == "computer" for s in request.seats)
        if (
            nobody
            and request.spec.name == "buckem"
            and (request.hands or cfg.buckem_hands) > cfg.computer_hands
        ):
            words = f"a Buck 'Em table with no person at it plays at most {cfg.computer_hands} rounds"
            raise ProtocolError("bad_request", words)
        key = address_key(host)
        mine = self.owned[key] = _live(self.owned.get(key, []), tables)
        if len(mine) >= cfg.tables_per_address:
            raise TableRefused(
                "too_many",
                f"{cfg.tables_per_address} tables created from your address are still being played; "
                "finish one (or wait for one to end) before you start another",
            )
        if nobody:
            self.computer_only = _live(self.computer_only, tables)
            if len(self.computer_only) >= cfg.max_computer_tables:
                raise TableRefused(
                    "full",
                    f"this server plays {cfg.max_computer_tables} tables with nobody at them already; "
                    "seat a person, or try later",
                )
        if not self.take(key):
            words = "too many tables created from your address; wait a minute, then try again"
            raise TableRefused("too_many", words)

    def record(self, host: str, table_id: str, computer_only: bool) -> None:
        """A table was created from ``host``."""
        self.owned.setdefault(address_key(host), []).append(table_id)
        if computer_only:
            self.computer_only.append(table_id)
        if len(self.owned) > 10_000:  # addresses whose tables are all over or gone are forgotten
            self.owned = {k: v for k, v in self.owned.items() if v}


def _live(ids: list[str], tables: Mapping[str, _Live]) -> list[str]:
    out = []
    for table_id in ids:
        table = tables.get(table_id)
        if table is not None and not table.over:
            out.append(table_id)
    return out
