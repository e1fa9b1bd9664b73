"""A person at the table: the screen shown on their turn, reading their answer
(a move's number, the move in words, or a command) and refusing bad answers in
the game's own words without changing anything."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable
from typing import Any

from ..actions import (
    Action,
    Discard,
    Draw,
    Play,
)
from ..cards import Card
from ..errors import HucklebuckError
from ..games.base import ActionEvent, Phase
from ..games.persist import write_atomic
from ..packs import GameKind
from ..players.hints import Hint
from ..words.cards import SUIT_NAMES, discard_order, sort_hand
from ..words.moves import NotNow, Unreadable, move_text, parse_answer
from .table import Table

__all__ = ["Human", "Quit", "move_text", "parse_answer"]


class Quit(Exception):
    """The person asked to leave the game (``quit`` or end of input)."""


_YOU = {"does": "do", "has": "have", "is": "are", "holds": "hold", "was": "were"}
"""The verb that goes with "you" where the game's words said "seat 3 does ..."."""


HELP: dict[GameKind, dict[Phase, str]] = {
    GameKind.HUCKLEBUCK: {
        Phase.AUCTION: "Bid how many tricks (2 to 5) you expect to take, higher than the last bid, "
        "or pass. The high bidder names trump and must take that many. A bid of 5 shoots the moon: "
        "all five tricks win the game from a positive score, missing costs 15.",
        Phase.TRUMP: "You won the auction: name any suit as trump (e.g. 'trump hearts' or 'h').",
        Phase.DECLARE: "Stay or drop. A player who drops sits the hand out with no score. Staying, "
        "say how many cards (0-5) you will exchange with the stock, e.g. 'stay 2'. A stayer scores "
        "a point a trick, or -5 for none. The bidder may not drop.",
        Phase.EXCHANGE: "Discard the number of cards you said (e.g. 'discard 3c 4d' or just '3c 4d'); "
        "you get as many from the stock.",
        Phase.PLAY: "Play a card (e.g. '10h'). Follow the suit led if you can; otherwise play anything. "
        "The highest trump wins, else the highest card of the suit led.",
    },
    GameKind.DEERPARK: {
        Phase.ORDER: "Round 1: order up the turned card's suit as trump (you become the maker and need "
        "three tricks; the dealer takes the card and discards one), or pass.",
        Phase.CALL: "Round 2: name any suit as trump (e.g. 'call hearts' or 'h'), or pass. The maker "
        "needs three tricks; a stuck dealer must name a suit and needs two. On 45 or more you may not "
        "call, unless stuck.",
        Phase.DEALER_DISCARD: "You took the turned card: discard one card (e.g. 'discard 9c' or '9c').",
        Phase.PLAY: "Play a card (e.g. '10h'). Follow suit if you can. The jack of trump is highest, "
        "then the other jack of the same colour (it counts as trump), then A K Q 10 9 ... of trump. "
        "Meet your requirement (maker 3, others 1) to count down a point a trick; miss it and add 5.",
    },
    GameKind.BUCKEM: {
        Phase.STAY_FOLD: "Stay or fold. A stayer with two or more tricks wins the pot (two winners "
        "split it); a stayer with fewer is burned and pays the pot into the next one. A lone stayer "
        "rakes the pot with the ace of trump or two trumps one of them K, Q or J. 'stay swap' trades "
        "the 2 of trump for the upcard where that option is on.",
        Phase.DRAW: "Discard up to three cards and draw as many (e.g. 'draw 3c 4d' or '3c 4d'), or "
        "'stand' to keep your hand.",
        Phase.PLAY: "Play a card (e.g. '10h'). Follow suit if you can; the highest trump wins, else "
        "the highest card of the suit led.",
    },
}


_EXAMPLES = {
    GameKind.HUCKLEBUCK: "'10h', 'AS', 'bid 3', 'pass'",
    GameKind.DEERPARK: "'10h', 'AS', 'order', 'call hearts', 'pass'",
    GameKind.BUCKEM: "'10h', 'AS', 'stay', 'fold', 'draw 3c 4d'",
}
"""Moves as typed, one game's own (no 'bid 3' in a game without bids)."""


def commands_help(kind: GameKind) -> str:
    """How to answer, with examples from ``kind``'s own moves, and the commands."""
    return COMMANDS_HELP.replace("'10h', 'AS', 'bid 3', 'pass'", _EXAMPLES[kind])


COMMANDS_HELP = (
    "Answer with a move's number, or write the move (any case: '10h', 'AS', 'bid 3', 'pass').\n"
    "Commands: ? or help (this), hint (what the evaluation says of each move),\n"
    "          show (the table again), save FILE (continue later with --resume FILE), quit."
)


class Human:
    """One or more people at the table, sharing the terminal (hot seat)."""

    def __init__(
        self,
        table: Table,
        say: Callable[[str], None],
        read: Callable[[str], str | None],
        *,
        save: Callable[[str], str],
        hint: Callable[[int], Hint] | None = None,
        hot_seat: bool = False,
        clear: Callable[[], None] | None = None,
        auto_forced: bool = False,
        offer_save: bool = False,
    ) -> None:
        """``read(prompt)`` returns the next line or ``None`` at end of input;
        ``save(path)`` writes the game and returns a message; ``hint(seat)``
        rates each legal move.  With ``hot_seat`` (several people at one
        terminal) each person presses Enter before their hand is shown, and
        the screen is cleared after their move (``clear``, else scrolled away).
        With ``auto_forced`` a seat's only legal move is played for it, and said;
        with ``offer_save``, ``quit`` asks for a file to save to first."""
        self.table = table
        self.say = say
        self.read = read
        self.save = save
        self.hint = hint
        self.hot_seat = hot_seat
        self.clear = clear
        self.auto_forced = auto_forced
        self.offer_save = offer_save
        self._last: int | None = None
        self._saved: dict[str, Any] | None = None  # the game as last saved

    @property
    def game(self) -> Any:
        """The game being played."""
        return self.table.game

    def screen(self, seat: int) -> list[Action]:
        """Show the table as ``seat`` sees it; returns the numbered legal moves."""
        game, t, say = self.game, self.table, self.say
        names = t.names
        kind = game.kind
        say("")
        whose = "Your turn" if names[seat] == "You" else f"{names[seat]}'s turn"
        dealer = "you deal" if names[game.dealer] == "You" else f"{names[game.dealer]} deals"
        say(f"--- {whose}: hand {game.hand_number}, {t.phase_name()}; {dealer} ---")
        up = t.upcard()
        trump = game.trump
        if kind is GameKind.DEERPARK and up is not None and game.phase in (Phase.ORDER, Phase.CALL):
            say(f"Turned up: {up.display}" + ("  (turned down)" if game.phase is Phase.CALL else ""))
        if kind is GameKind.BUCKEM and up is not None:
            up = game.observation(seat).upcard  # hides a deuce swap until everyone has declared
            say(f"Upcard: {up.display}")
        say(f"Trump: {trump.glyph} {SUIT_NAMES[trump]}" if trump is not None else "Trump: not chosen yet")
        if kind is GameKind.HUCKLEBUCK and game.bid is not None and game.bidder is not None:
            say(f"High bid: {game.bid} by {'you' if names[game.bidder] == 'You' else names[game.bidder]}")
        if kind is GameKind.DEERPARK and game.maker is not None:
            maker = "you" if names[game.maker] == "You" else names[game.maker]
            say(f"Maker: {maker}, needing {game.requirement} tricks; everyone else needs 1")
        if game.phase is Phase.PLAY:
            trick = game.current_trick
            if trick:
                plays = ", ".join(f"{names[a.seat]} {t.card(a.card)}" for a in current_plays(game))
                say(f"This trick: {plays}")
            else:
                say("This trick: you lead")
            playing = {s for s in range(game.players) if game.hand(s)} | {
                s for t in game.tricks for s in t.seats
            }  # seats that dropped, folded or are out hold no cards and sit the hand out
            won = ", ".join(f"{names[s]} {w}" for s, w in enumerate(game.tricks_won) if s in playing)
            say(f"Tricks won: {won}")
        say(t.standings_text())
        say(f"Your hand: {t.cards(game.hand(seat))}")
        legal = self.menu(seat)
        say("Your moves:")
        items = [f"{i:>2}) {move_text(a, game)}" for i, a in enumerate(legal, 1)]
        width = max(len(x) for x in items) + 3
        per_row = max(1, 76 // width)
        for r in range(0, len(items), per_row):
            say("  " + "".join(x.ljust(width) for x in items[r : r + per_row]).rstrip())
        hidden = len(game.legal_actions()) - len(legal)
        if hidden:
            example = max((a for a in legal if isinstance(a, (Discard, Draw))), key=lambda a: len(a.cards))
            self.para(
                f"... and {hidden} other ways to choose the cards: type the cards instead of a number "
                f"(e.g. '{_typed(example, game)}')."
            )
        return legal

    MENU_CARD_CHOICES = 9
    """How many ways of choosing cards (discards, draws) the menu numbers; typing the cards reaches all."""

    def menu(self, seat: int) -> list[Action]:
        """The legal moves in the menu's order: cards as the hand shows them; sets of
        cards to throw away fewest first, weakest first (the natural choice near the top),
        cut to :attr:`MENU_CARD_CHOICES` of them."""
        game = self.game
        trump, kind = game.trump, game.kind
        legal: list[Action] = game.legal_actions()
        if game.phase is Phase.PLAY:
            shown = sort_hand(game.hand(seat), trump, kind)
            legal.sort(key=lambda a: shown.index(a.card) if isinstance(a, Play) else 0)
            return legal
        choices = [a for a in legal if isinstance(a, (Discard, Draw)) and a.cards]
        if not choices:
            return legal
        others = [a for a in legal if a not in choices]
        choices.sort(key=lambda a: discard_order(a.cards, trump, kind))
        if len(choices) > self.MENU_CARD_CHOICES + 3:  # cut only where it saves a screenful
            choices = choices[: self.MENU_CARD_CHOICES]
        return others + choices

    def ask(self, seat: int) -> Action:
        """Ask ``seat`` for a move until a legal one is given; raises :class:`Quit`."""
        who = self.table.names[seat]
        legal: list[Action] = self.game.legal_actions()
        if self.auto_forced and len(legal) == 1:
            whose = "your" if who == "You" else f"{who}'s"
            self.say(f"  ({whose} only legal move: {move_text(legal[0], self.game)}, played automatically)")
            return legal[0]
        if self.hot_seat and seat != self._last:
            if self.read(f"{who}: your turn. Press Enter when only you can see the screen") is None:
                raise Quit("end of input")
        self._last = seat
        action = self._ask(seat, who)
        if self.hot_seat:
            if self.clear is not None:
                self.clear()  # the screen and the scrollback: the next person must not see this hand
            else:
                self.say("\n" * 40)
            self.say(f"({who} has moved)")
            self._last = None
        return action

    def _quit(self) -> None:
        """Leave the game, offering to save it first."""
        if self.offer_save and self._saved is not None and self._saved == self.game.to_dict():
            self.say("The game is saved as it stands; leaving.")
        elif self.offer_save:
            line = self.read("Save the game first? Type a file name, or just Enter to leave without saving")
            path = (line or "").strip()
            while path:
                message = self.save(path)
                self.say(message)
                if message.startswith("Saved"):
                    break
                line = self.read("Type another file name, or just Enter to leave without saving")
                path = (line or "").strip()
        raise Quit("quit")

    def _ask(self, seat: int, who: str) -> Action:
        legal = self.screen(seat)
        choices = "1" if len(legal) == 1 else f"1-{len(legal)}"
        prompt = f"{'Your' if who == 'You' else who + ', your'} move ({choices}, or ? for help)"
        while True:
            line = self.read(prompt)
            if line is None:
                raise Quit("end of input")
            text = line.strip()
            low = text.lower()
            if not text:
                self.say(f"Type a move's number ({choices}), or ? for help.")
                continue
            if low in ("?", "help"):
                self.para(HELP[self.game.kind].get(self.game.phase, ""))
                self.say(commands_help(self.game.kind))
                continue
            if low in ("quit", "exit"):
                self._quit()
            if low in ("show", "table", "look"):
                legal = self.screen(seat)
                continue
            if low == "hint":
                self._hint(seat)
                continue
            if low == "save" or low.startswith("save "):
                path = text[4:].strip()
                message = self.save(path) if path else "Say where: save FILE"
                if message.startswith("Saved"):
                    self._saved = self.game.to_dict()
                self.say(message)
                continue
            if text.isdigit():  # any script's digits ('²', '٣'): only 0-9 make a move's number
                n = int(text) if text.isascii() and len(text) < 6 else 0
                if 1 <= n <= len(legal):
                    return legal[n - 1]
                self.say(f"There is no move {text}: choose {choices.replace('-', ' to ')}.")
                continue
            try:
                action = parse_answer(self.game.kind, self.game.phase, seat, text)
            except NotNow as exc:  # understood, but not a move now: not an unreadable answer
                self.say(f"Not now: {exc}.")
                continue
            except Unreadable as exc:
                self.say(f"I can't read {text!r}: {exc}. Type a move's number, or ? for help.")
                continue
            except HucklebuckError as exc:
                self.say(f"I can't read {text!r}: {self.table.words(str(exc))}")
                continue
            if action in legal or self.game.is_legal(action):
                return action
            self.say(f"Not allowed: {self._why_illegal(action)}")

    def _why_illegal(self, action: Action) -> str:
        if isinstance(action, Play) and action.card not in self.game.hand(action.seat):
            return f"{action.card.display} is not in your hand"
        trial = self.game.copy()
        try:
            trial.apply(action)
        except HucklebuckError as exc:
            text = str(exc)
            prefix = f"{action}: "  # the game names the action in protocol form first
            text = text[len(prefix) :] if text.startswith(prefix) else text
            return self._personal(text)
        return "that is not one of your moves now"  # pragma: no cover - legal list and apply agree

    def _personal(self, text: str) -> str:
        """The game's words with seat numbers as the table names them and cards as people write them."""
        names = self.table.names

        def seat(m: re.Match[str]) -> str:
            n = int(m.group(1))
            if not 0 <= n < len(names):
                return m.group(0)
            return "you" if names[n] == "You" else names[n]

        text = re.sub(r"\bseat (\d+)", seat, self.table.words(text))
        text = re.sub(r"\b([Yy]ou)'s\b", lambda m: "Your" if m.group(1) == "You" else "your", text)
        text = re.sub(
            r"\b([Yy]ou) (does|has|is|holds|was)\b", lambda m: f"{m.group(1)} {_YOU[m.group(2)]}", text
        )
        return re.sub(r"\b([2-9TJQKA][CDHS])\b", lambda m: Card.parse(m.group(1)).display, text)

    def para(self, text: str) -> None:
        """Print ``text`` wrapped to 78 columns."""
        for line in textwrap.wrap(text, 78) or [""]:
            self.say(line)

    def _hint(self, seat: int) -> None:
        if self.hint is None:
            self.say("No hint is available for this game.")
            return
        self.say("Thinking...")
        try:
            rated = self.hint(seat)
        except HucklebuckError as exc:
            self.say(f"No hint: {exc}")
            return
        *lines, reason = rated.lines(lambda a: move_text(a, self.game))
        for line in lines:
            self.say(line)
        self.para(reason)


def _typed(action: Discard | Draw, game: Any) -> str:
    """How a person would type ``action`` (``draw 3c 5c``)."""
    verb = "discard" if isinstance(action, Discard) else "draw"
    cards = sort_hand(action.cards, game.trump, game.kind)
    return f"{verb} " + " ".join(c.display[:-1].lower() + "cdhs"[int(c.suit)] for c in cards)


def current_plays(game: Any) -> list[Play]:
    """The plays of the trick in progress, in order (from the event log)."""
    count = len(game.current_trick)
    plays: list[Play] = []
    for ev in reversed(game.events):
        if len(plays) == count:
            break
        if isinstance(ev, ActionEvent) and isinstance(ev.action, Play):
            plays.append(ev.action)
    return plays[::-1]


def save_game(game: Any, path: str, meta: dict[str, Any]) -> str:
    """Write the game's JSON form (plus the table's seats) to ``path``; returns a message."""
    data = game.to_dict()
    data["table"] = meta
    try:
        write_atomic(path, json.dumps(data))  # a failed save leaves the previous one intact
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        shown = path if isinstance(path, str) and "\0" not in path else repr(path)
        return f"Could not save to {shown}: {why}"
    from . import program_name

    return f"Saved to {path}. Continue later with: {program_name()} play --resume {path}"
