"""The card table as text: who sits where, what each player did, the tricks,
each hand's scoring with its reasons, and who won and why.

Used both for watching computer players and for a person at the table: with
``show_all`` every hand and every drawn card is shown (watching bots); without
it only the hands of the seats in ``private`` are (a person sees only their own).
The terminal prints it; the table server keeps one per table for its phase words.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..actions import Action, Order, Play
from ..cards import Card, CardSet, Rank
from ..games.base import DealEvent, GameOverEvent, Phase, ScoreEvent, TrickEvent
from ..games.engine import TrickGame
from ..packs import GameKind
from .cards import LEFT_BOWER_MARK, SUIT_NAMES, card_text, cards_text, sort_hand
from .lines import (
    PHASE_WORDS,
    describe_action,
    drop_citations,
    game_rules_line,
    order_up_line,
    score_reason,
    second_person,
    trick_line,
)

__all__ = ["Narrator"]  # Table: the same class under the terminal's old name


class Table:
    """Narrates a game: see the module docstring."""

    def __init__(
        self,
        game: TrickGame[Any, Any],
        names: Sequence[str],
        say: Callable[[str], None],
        *,
        show_all: bool,
        private: Iterable[int] = (),
        cite: bool = False,
    ) -> None:
        """Narrate ``game`` through ``say`` with seat ``names``; with ``cite`` the
        lines keep their rule citations (``S2``, ``DEF #7``), else they are left out."""
        self.game = game
        self.names = list(names)
        self._out = say
        self.show_all = show_all
        self.private = set(private)
        self.cite = cite
        deals = [i for i, ev in enumerate(game.events) if isinstance(ev, DealEvent)]
        self._seen = deals[-1] if deals else len(game.events)
        self._scores: list[ScoreEvent] = []
        self._held: list[str] = []
        self._out_before: tuple[int, ...] = tuple(getattr(game, "out", ()))

    def say(self, line: str) -> None:
        """Print one line of narration (in the second person for ``You``)."""
        self._out(self.words(line))

    def words(self, line: str) -> str:
        """``line`` as the table prints it: second person for ``You``, citations only with ``cite``."""
        return second_person(line if self.cite else drop_citations(line))

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards in hand order, Deer Park's left bower marked once trump is known."""
        trump = self.game.trump
        return cards_text(sort_hand(cards, trump, self.kind), trump, self.kind)

    def card(self, card: Card) -> str:
        """One card, Deer Park's left bower marked."""
        return card_text(card, self.game.trump, self.kind)

    @property
    def kind(self) -> GameKind:
        """The game being narrated."""
        return self.game.kind

    def sees(self, seat: int) -> bool:
        """Whether the viewer may see ``seat``'s cards."""
        return self.show_all or seat in self.private

    def standings_text(self, *, before_ante: bool = False) -> str:
        """Every seat's score (or bankroll) with the pot in Buck 'Em; ``before_ante``:
        as they stood before this hand's ante was taken."""
        label = "Bankrolls" if self.kind is GameKind.BUCKEM else "Scores"
        standings = list(self.game.standings)
        pot = getattr(self.game, "pot", 0)
        if before_ante:
            for ev in self._antes():
                standings[ev.seat] -= ev.delta
                pot += ev.delta
        parts = [f"{self.names[s]} {v}" for s, v in enumerate(standings)]
        text = f"{label}: " + ", ".join(parts)
        if self.kind is GameKind.BUCKEM:
            text += f"; pot {pot}"
        return text

    def _antes(self) -> list[ScoreEvent]:
        """This hand's ante payments (Buck 'Em), from the event log."""
        if self.kind is not GameKind.BUCKEM:
            return []
        hand = self.game.hand_number
        return [
            ev
            for ev in self.game.events
            if isinstance(ev, ScoreEvent)
            and ev.hand == hand
            and ev.delta < 0
            and ev.reason.startswith("ante")
        ]

    def upcard(self) -> Card | None:
        """The turned card (Deer Park Euchre) or upcard (Buck 'Em), if any."""
        if self.kind is GameKind.DEERPARK:
            card: Card = getattr(self.game, "turned")  # noqa: B009 - only Deer Park has it
            return card
        if self.kind is GameKind.BUCKEM:
            up: Card = getattr(self.game, "upcard")  # noqa: B009 - only Buck 'Em has it
            return up
        return None

    def intro(self, header: str, labels: str) -> None:
        """The opening lines: the game, how it is won, the players."""
        say = self.say
        say(header)
        for text in (game_rules_line(self.game), *labels.splitlines()):
            indent = text[: len(text) - len(text.lstrip())]
            for line in textwrap.wrap(text.strip(), 78, initial_indent=indent, subsequent_indent=indent):
                say(line)

    def hand_start(self) -> None:
        """Announce a new hand: dealer, standings, the visible cards."""
        game, say, names = self.game, self.say, self.names
        say("")
        standing = self.standings_text(before_ante=True)
        say(f"=== Hand {game.hand_number}: {names[game.dealer]} deals. {standing}")
        for s in range(game.players):
            cards = game.hand(s)
            if cards and self.sees(s):
                say(f"  {names[s]}: {self.cards(cards)}")
        up = self.upcard()
        if self.kind is GameKind.DEERPARK and up is not None:
            say(f"  Turned up: {up.display}")
        trump = game.trump
        if self.kind is GameKind.BUCKEM and up is not None and trump is not None:
            say(f"  Upcard: {up.display}, so trump is {trump.glyph} {SUIT_NAMES[trump]}")
            for s in range(game.players):
                scare = game.scare_card(s)  # type: ignore[attr-defined]
                if scare is not None:
                    say(f"  {names[s]}'s scare card (face up): {scare.display}")
        self._scores = []
        self.events()
        antes = self._antes()
        if antes:
            amounts = {-ev.delta for ev in antes}
            who = (
                "Everyone antes" if len(antes) == game.players else ", ".join(names[ev.seat] for ev in antes)
            )
            if len(amounts) == 1:
                line = f"  {who} {amounts.pop()}" + (" each" if 1 < len(antes) < game.players else "")
            else:
                line = "  Antes: " + ", ".join(f"{names[ev.seat]} {-ev.delta}" for ev in antes)
            self.say(f"{line}: the pot is {getattr(game, 'pot', 0)}")
        if self.kind is GameKind.DEERPARK and game.phase is Phase.PLAY and up is not None:
            self.say("  A club is turned: clubs are trump without calling (S4, DEF #67)")

    def action(self, seat: int, action: Action, before: CardSet) -> None:
        """Narrate ``action`` by ``seat`` (``before``: the seat's cards before it)."""
        up = self.upcard()
        lines: list[str] = []
        if isinstance(action, Order) and up is not None:
            lines.append("  " + order_up_line(self.names[seat], up, self.names[self.game.dealer]))
        elif not isinstance(action, Play):
            lines.append(
                "  "
                + describe_action(
                    action,
                    self.names[seat],
                    show_cards=self.sees(seat),
                    trump=self.game.trump,
                    kind=self.kind,
                )
            )
        after = self.game.hand(seat)
        drawn = after - before
        if drawn and not isinstance(action, Play):
            if self.sees(seat):
                lines.append(f"  {self.names[seat]} gets {self.cards(drawn)}")
        if self._secret_declarations() and self.game.phase is Phase.STAY_FOLD and seat not in self.private:
            self._held.extend(lines)  # simultaneous declaring: shown once everyone has declared
        else:
            if self._held and self.game.phase is not Phase.STAY_FOLD:
                self.say("  Everyone has declared:")
                for line in self._held:
                    self.say(line)
                self._held = []
            for line in lines:
                self.say(line)
        self.events()

    def _secret_declarations(self) -> bool:
        """Buck 'Em's simultaneous declaring with a person at the table (S3, DEF #59)."""
        return (
            self.kind is GameKind.BUCKEM
            and not self.show_all
            and bool(getattr(self.game.options, "simultaneous_declare", False))
        )

    def events(self) -> None:
        """Narrate new tricks; collect score lines for the hand's table."""
        game = self.game
        for ev in game.events[self._seen :]:
            if isinstance(ev, TrickEvent):
                t = ev.trick
                line = trick_line(ev.number, t.seats, t.cards, t.winner, self.names, game.trump, self.kind)
                self.say("  " + line)
            elif isinstance(ev, ScoreEvent):
                self._scores.append(ev)
        self._seen = len(game.events)

    def caught_up(self) -> None:
        """Take the game's events so far as told (after a recap told them through another table)."""
        game = self.game
        hand = game.hand_number
        self._scores = [ev for ev in game.events if isinstance(ev, ScoreEvent) and ev.hand == hand]
        self._seen = len(game.events)

    def announce_trump(self) -> None:
        """Say that play starts, what trump is, who leads (and the maker in Deer Park Euchre)."""
        game = self.game
        trump, leader = game.trump, game.trick_leader
        if trump is None:
            return
        lead = ""
        if leader is not None:
            lead = "; you lead" if self.names[leader] == "You" else f"; {self.names[leader]} leads"
        self.say(f"  Play begins. Trump: {trump.glyph} {SUIT_NAMES[trump]}{lead}")
        if self.kind is GameKind.DEERPARK:
            left = Card(Rank.JACK, trump.partner)
            self.say(
                f"  The left bower {self.card(left)} counts as a {SUIT_NAMES[trump][:-1]}, the second-best"
                f" trump (marked {LEFT_BOWER_MARK})"
            )
            maker, need = getattr(game, "maker", None), getattr(game, "requirement", None)
            if maker is not None and need is not None:
                who = self.names[maker]
                verbs = ("are", "need") if who == "You" else ("is", "needs")
                self.say(f"  {who} {verbs[0]} the maker and {verbs[1]} {need} tricks; everyone else needs 1")

    def hand_end(self) -> None:
        """The hand's scoring table, with the reason (and rule) for each line."""
        game, say, names = self.game, self.say, self.names
        self.events()
        say("")
        say(f"--- Scoring of hand {game.hand_number} ---")
        width = max(len(n) for n in names)
        antes = self._antes()
        lines = [ev for ev in self._scores if ev.delta or ev.reason]
        if len(antes) > 1 and len({ev.delta for ev in antes}) == 1:
            # One line for the round's ante, not one per seat.
            lines = [ev for ev in lines if ev not in antes]
            who = "Everyone" if len(antes) == game.players else ", ".join(names[ev.seat] for ev in antes)
            width = max(width, len(who))
            reason = re.sub(r"^ante (\d+)", r"ante \1 each, at the deal", antes[0].reason)
            say(f"  {who:<{width}}  {antes[0].delta:+4d}  {reason}")
        elif not lines:
            say("  no score changes")
        for ev in lines:
            reason = score_reason(self._personal(ev.reason))
            if ev.delta == 0 and self.kind is GameKind.BUCKEM:
                # A note on the round (no chips move): a sentence, not a seat's line.
                note = (
                    reason
                    if reason.startswith(("nobody", "no one", "everyone"))
                    else f"{names[ev.seat]} {reason}"
                )
                say(f"  {note[:1].upper()}{note[1:]}")
                continue
            say(f"  {names[ev.seat]:<{width}}  {ev.delta:+4d}  {reason}")
        if self.kind is GameKind.BUCKEM:
            self._odd_chip_note(lines)
        say("  " + self.standings_text())
        out_now = tuple(getattr(game, "out", ()))
        for s in out_now:
            if s not in self._out_before:
                say(f"  {names[s]} is out of the game (score {game.standings[s]}, at or below -25, S2)")
        self._out_before = out_now
        self._scores = []

    def _odd_chip_note(self, lines: Sequence[ScoreEvent]) -> None:
        """Buck 'Em: say when chips of a won pot stay in it (the odd chip of an even split, DEF #37)."""
        if not any(ev.delta > 0 and "wins" in ev.reason for ev in lines):
            return
        burns = -sum(ev.delta for ev in lines if "burned" in ev.reason)
        left = getattr(self.game, "pot", 0) - burns
        if left > 0:
            chips = "1 chip stays" if left == 1 else f"{left} chips stay"
            self.say(f"  {chips} in the pot: an even split leaves the odd chip there for the next hand")

    def _personal(self, text: str) -> str:
        """``seat 3`` in the game's words becomes the seat's name at this table."""

        def seat(m: re.Match[str]) -> str:
            n = int(m.group(1))
            return self.names[n] if 0 <= n < len(self.names) else m.group(0)

        return re.sub(r"\bseat (\d+)", seat, text)

    def game_end(self, stopped_after: int | None = None) -> None:
        """Who won and why (or where a session stopped)."""
        game, say, names = self.game, self.say, self.names
        say("")
        if not game.is_over:
            standings = game.standings
            top = max(standings)
            leaders = " and ".join(names[s] for s in range(game.players) if standings[s] == top)
            what = "bankroll" if self.kind is GameKind.BUCKEM else "score"
            say(f"Stopped after {_hands(game.hand_number)}. {self.standings_text()}")
            if self.kind is GameKind.DEERPARK:  # two goals, 0 and 50: the nearest to either leads
                say(f"Leading: {self._nearest_goal(standings)}.")
                return
            say(f"Leading: {leaders} with the biggest {what} ({top}).")
            return
        winners = game.winners
        reason = next((ev.reason for ev in reversed(game.events) if isinstance(ev, GameOverEvent)), "")
        who = " and ".join(names[s] for s in winners)
        say(f"Game over after {_hands(game.hand_number)}. {self.standings_text()}")
        say(f"Winner: {who}. {self.why(winners, reason)}")

    def _nearest_goal(self, standings: Sequence[int]) -> str:
        """Deer Park Euchre: who is nearest a goal (0 or 50), and how near."""
        away = [min(abs(v), abs(50 - v)) for v in standings]
        best = min(away)
        seats = [s for s in range(len(standings)) if away[s] == best]
        who = " and ".join(self.names[s] for s in seats)
        goals = sorted({0 if abs(standings[s]) <= abs(50 - standings[s]) else 50 for s in seats})
        goal = " or ".join(str(g) for g in goals)
        return f"{who}, {best} point{'s' if best != 1 else ''} from the goal of {goal}"

    def why(self, winners: Sequence[int], reason: str) -> str:
        """A sentence explaining the game's end reason."""
        game, names = self.game, self.names
        scores = game.standings
        first = winners[0] if winners else 0
        who = " and ".join(names[s] for s in winners)
        score = scores[first]
        if self.kind is GameKind.HUCKLEBUCK:
            target = game.options.target
            if reason == "moon":
                return f"{who} shot the moon (bid 5 and took all five tricks), which wins the game (S2)."
            if reason.startswith("target"):
                extra = ""
                if "bidder" in reason:
                    extra = "; several players reached it and the tie goes to the bidder (DEF #17)"
                elif "shared" in reason:
                    extra = "; the players tied at the top share the win (DEF #17)"
                return f"{who} reached {score}, at or past the target of {target}{extra}."
            if reason == "last player not out":
                return f"{who} is the last player not out; everyone else fell to -25 or below (S2)."
            if reason.startswith("everyone out"):
                return "Everyone fell to -25 or below; the highest score wins (DEF #16)."
        if self.kind is GameKind.DEERPARK:
            goal = "0 or below" if score <= 0 else "50 or more"
            if reason == "goal reached":
                return f"{who} reached {score}: a score of {goal} ends the game (S4)."
            if "farthest" in reason:
                return f"Several players reached a goal; {who} went farthest past it, to {score} (DEF #74)."
            if "maker" in reason:
                return "Several players are equally far past a goal; the tie goes to the maker (DEF #74)."
            if "shared" in reason:
                return "Several players are equally far past a goal and share the win (DEF #74)."
        return f"({reason})" if reason else ""

    def phase_name(self) -> str:
        """The current phase in words."""
        return PHASE_WORDS.get(self.game.phase, self.game.phase.value)


def _hands(n: int) -> str:
    return f"{n} hand" if n == 1 else f"{n} hands"


Narrator = Table
"""The same class under the name the table server uses."""
