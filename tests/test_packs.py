from __future__ import annotations

import pytest

from hucklebuck import GameKind, PlayerCountError, Rank, pack, player_range


@pytest.mark.parametrize("players", range(3, 8))
def test_hucklebuck_uses_52_cards_for_3_to_7(players: int) -> None:
    assert len(pack("hucklebuck", players)) == 52


@pytest.mark.parametrize("players", [2, 8, 0])
def test_hucklebuck_rejects_other_counts(players: int) -> None:
    with pytest.raises(PlayerCountError, match=f"not {players}"):
        pack("hucklebuck", players)


@pytest.mark.parametrize(("players", "size", "lowest"), [(5, 44, 4), (6, 48, 3), (7, 52, 2), (8, 52, 2)])
def test_buckem_short_handed_packs(players: int, size: int, lowest: int) -> None:
    p = pack(GameKind.BUCKEM, players, short_handed=True)
    assert len(p) == size
    assert min(c.rank for c in p) == lowest
    assert len(pack(GameKind.BUCKEM, players)) == 52


@pytest.mark.parametrize("players", [4, 9])
def test_buckem_range(players: int) -> None:
    with pytest.raises(PlayerCountError):
        pack("buckem", players)


@pytest.mark.parametrize("players", range(3, 8))
def test_deerpark_pack_is_highest_n_plus_2_ranks(players: int) -> None:
    p = pack("deerpark", players)
    assert len(p) == 4 * (players + 2)
    assert min(c.rank for c in p) == Rank.ACE - players - 1
    assert 8 - players == len(p) - 5 * players  # kitty size (DEF #70)


def test_deerpark_rejects_eight() -> None:
    with pytest.raises(PlayerCountError, match="3 to 7 players, not 8"):
        pack("deerpark", 8)


def test_player_ranges_and_bad_game() -> None:
    assert player_range("buckem") == (5, 8)
    with pytest.raises(ValueError, match="'poker' is not a game"):
        pack("poker", 4)
