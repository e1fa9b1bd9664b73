"""``POST /api/tables`` per client: a creation rate and a quota of live tables per address, and
all-computer tables bounded apart (how many at once, how long), so that one client cannot fill
the server with tables while others are refused."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("starlette")

import server_kit as kit

from hucklebuck.server.app import create_app
from hucklebuck.server.quotas import address_key

PERSON = kit.humans_and_bots(1, 3)
NOBODY = kit.humans_and_bots(0, 4)


@contextmanager
def clients(**changes: Any) -> Iterator[Any]:
    """A test client whose requests come from the address in their ``x-from`` header."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    app = create_app(kit.config(**changes))

    async def from_header(scope: Any, receive: Any, send: Any) -> None:
        for name, value in scope.get("headers", ()):
            if name == b"x-from":
                scope["client"] = (value.decode(), 40000)
        await app(scope, receive, send)

    with TestClient(from_header) as c:
        yield c


def create(c: Any, who: str, seats: list[dict[str, Any]], game: str = "deerpark", **body: Any) -> Any:
    return c.post(
        "/api/tables",
        json={"game": game, "players": len(seats), "seats": seats} | body,
        headers={"x-from": who},
    )


def test_one_address_holds_at_most_its_quota_of_live_tables_and_others_still_create() -> None:
    with clients(tables_per_address=3) as c:
        made = [create(c, "10.0.0.1", PERSON) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        refused = create(c, "10.0.0.1", PERSON)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many"
        assert "still being played" in refused.json()["error"]["message"]
        assert refused.headers["retry-after"] == "60"
        assert create(c, "10.0.0.2", PERSON).status_code == 201  # somebody else is not refused
        # an IPv6 client counts by its /64 network: another address of it is the same client
        for i in range(3):
            assert create(c, f"2001:db8:1:2::{i + 1}", PERSON).status_code == 201
        assert create(c, "2001:db8:1:2:ffff::9", PERSON).status_code == 429
        assert create(c, "2001:db8:1:3::1", PERSON).status_code == 201


def test_a_table_that_ends_frees_its_place_in_the_quota() -> None:
    with clients(tables_per_address=1) as c:
        first = create(c, "10.0.0.1", NOBODY)  # computers only, bot_pause 0: it plays to its end
        assert first.status_code == 201
        table_id = first.json()["id"]
        assert create(c, "10.0.0.1", PERSON).status_code == 429
        deadline = time.monotonic() + 60
        while not c.get(f"/api/tables/{table_id}").json()["over"]:
            assert time.monotonic() < deadline, "the computers' game never ended"
            time.sleep(0.05)
        assert create(c, "10.0.0.1", PERSON).status_code == 201


def test_tables_are_created_at_a_bounded_rate_per_address() -> None:
    with clients(create_burst=4, create_rate=0.001) as c:
        codes = [create(c, "10.0.0.1", PERSON).status_code for _ in range(6)]
        assert codes == [201] * 4 + [429] * 2
        r = create(c, "10.0.0.1", PERSON)
        assert "too many tables created from your address" in r.json()["error"]["message"]
        assert create(c, "10.0.0.2", PERSON).status_code == 201


def test_tables_with_nobody_at_them_are_bounded_in_number_and_length() -> None:
    with clients(max_computer_tables=2, computer_hands=50) as c:
        assert create(c, "10.0.0.1", NOBODY).status_code == 201
        assert create(c, "10.0.0.2", NOBODY).status_code == 201
        full = create(c, "10.0.0.3", NOBODY)
        assert full.status_code == 503 and full.json()["error"]["code"] == "full"
        assert "nobody at them" in full.json()["error"]["message"]
        assert create(c, "10.0.0.3", PERSON).status_code == 201  # a table with a person still opens
        long = create(c, "10.0.0.4", kit.humans_and_bots(0, 5), game="buckem", hands=1000)
        assert long.status_code == 400 and "at most 50 rounds" in long.json()["error"]["message"]
        people = create(c, "10.0.0.4", kit.humans_and_bots(1, 4), game="buckem", hands=1000)
        assert people.status_code == 201  # a person at the table may play a long session


def test_the_default_quotas_stop_a_creation_flood() -> None:
    """What one script did before: 40 all-computer Buck 'Em tables of 1,000 rounds at once."""
    defaults = {"create_rate": 0.2, "create_burst": 20, "tables_per_address": 50, "max_computer_tables": 20}
    defaults["bot_pause"] = 30.0  # the computers' tables stay in play for the whole test
    with clients(**defaults) as c:
        codes = [
            create(c, "10.0.0.9", kit.humans_and_bots(0, 5), game="buckem", hands=1000).status_code
            for _ in range(40)
        ]
        assert 201 not in codes and set(codes) == {400}
        codes = [create(c, "10.0.0.9", NOBODY).status_code for _ in range(40)]
        assert codes.count(201) == 20 and set(codes[20:]) == {503}
        assert create(c, "10.0.0.8", PERSON).status_code == 201


def test_address_keys() -> None:
    assert address_key("10.1.2.3") == "10.1.2.3"
    assert address_key("::ffff:10.1.2.3") == "10.1.2.3"
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert address_key("testclient") == "testclient"
