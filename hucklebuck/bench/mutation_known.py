"""The hand-written mutants of the mutation check (:mod:`hucklebuck.bench.mutation`).

Each is ``(module, what, text, replacement)``: ``module`` names an entry of
``MODULES`` in the mutation check, ``text`` occurs once in that module, and
``python -m hucklebuck.bench.mutation --known`` runs these instead of a sample.
A mutant whose ``what`` says "reason text" or "descriptions" changes only what
the protocol cannot see; every other mutant of a rule module must be caught by
the conformance suite alone (``tests/test_mutation_known.py``).
"""

from __future__ import annotations

__all__ = ["KNOWN"]

#: The bugs no test and no conformance case caught before the
#: deciding cases were written (``--known`` runs these instead of a sample), as
#: ``(module, what, text, replacement)``; each text occurs once in its module.
KNOWN: tuple[tuple[str, str, str, str], ...] = (
    ("hucklebuck_scoring", "bidder_first: a lone non-bidder at the target test negated",
     "if len(at_target) == 1:", "if not len(at_target) == 1:"),
    ("hucklebuck_scoring", "bidder_first: a lone non-bidder's win deleted",
     'return (at_target[0],), "target"', "pass"),
    ("hucklebuck_scoring", "everyone out: the highest score is never computed",
     "top = max(game._scores)", "pass"),
    ("hucklebuck_scoring", "any_bid: a score of 0 counts as in the hole",
     "if prior < 0 and opts.in_the_hole", "if prior < 1 and opts.in_the_hole"),
    ("hucklebuck_scoring", "any_bid: the reset's reason text",
     "from the hole: back to 0", "from the hole: to 0"),
    ("deerpark_scoring", "lock_permanent: reaching exactly lock_at in play does not lock",
     "if score_list[s] >= lock_at:", "if score_list[s] > lock_at:"),
    ("deerpark_scoring", "lock_permanent: a lock reached in play is forgotten",
     "ever[s] = True", "pass"),
    ("deerpark_scoring", "failed_contract_tricks_count: the maker's reason text",
     "+5 - {t} (failed_contract_tricks_count", "+5 (failed_contract_tricks_count"),
    ("buckem_settle", "odd chip: even pots of 4, 8, 10 get a phantom chip", "if pot % 2:", "if pot % 3:"),
    ("buckem_settle", "a one-chip rake leftover treated as empty", "if game._pot > 0:", "if game._pot > 1:"),
    ("buckem_settle", "a one-chip pot loses its unit", "if game._pot == 0:", "if game._pot == 1:"),
    ("buckem_settle", "the rake descriptions swapped",
     '"all of a single pot" if single else "half of a double pot"',
     '"half of a double pot" if single else "all of a single pot"'),
    ("tricks", "a trick holding 2C (card 0) is refused as a duplicate", "    seen = 0\n", "    seen = 1\n"),
    ("tricks", "legal_plays_batch leaves a led card in the hand to the core",
     "            if led in hand_set:", "            if False:"),
    ("core_py", "the Python core: a lead of 52 reaches the tables",
     "if not 0 <= lead <= 51:", "if not 0 <= lead <= 52:"),
    ("core_py", "the Python core: a float game id is accepted",
     "if not isinstance(game, int) or not 0 <= game <= 2:", "if not 0 <= game <= 2:"),
    ("core_py", "the Python core: a bad trump in a batch of tricks gets the card message",
     "raise_for(-2, i)\n            suit, rank, _ =", "raise_for(-3, i)\n            suit, rank, _ ="),
    # Found by the mutation study of issue 61 (tests/test_rules_pins.py, tests/test_rules_reasons.py):
    ("hucklebuck_scoring", "highest_then_bidder: a tie without the bidder goes to the bidder",
     "if bidder is not None and bidder in tied:", "if bidder is not None:"),
    ("hucklebuck_scoring", "highest_then_bidder: a bidder at the target below the tie wins it",
     "and bidder in tied:", "and bidder in at_target:"),
    ("hucklebuck_scoring", "shared: everyone at the target shares, not only the tied",
     'return tuple(tied), "target, shared"', 'return tuple(at_target), "target, shared"'),
    ("hucklebuck_scoring", "a missed moon's reason text deleted",
     'f"missed the moon with {_tricks(t)}: {delta[s]} (S0, S2" + (', '"" and ('),
    ("hucklebuck_scoring", "a missed moon's reason text: stacked and plain penalty wording swapped",
     '", stacked penalty, DEF #14)" if stacks else ", DEF #14)"',
     '", DEF #14)" if stacks else ", stacked penalty, DEF #14)"'),
    ("hucklebuck_scoring", "the reason text for one trick reads '1 tricks'",
     'return f"{n} trick" if n == 1 else f"{n} tricks"', 'return f"{n} tricks"'),
    ("hucklebuck_scoring", "a moon won from 0 under moon_at_zero=win: the reason text says a positive score",
     '(S0, S2, DEF #15)"\n                        if prior > 0\n',
     '(S0, S2, DEF #15)"\n                        if prior >= 0\n'),
    ("hucklebuck_bidding", "the all-pass reason text loses its words",
     '"everyone passed: the dealer scores 5 without play (S0, DEF #4)"', '"everyone passed (S0, DEF #4)"'),
    ("buckem_settle", "a one-trick burn's reason text reads 'took 1 tricks'",
     '("" if won[s] == 1 else "s")', '"s"'),
    ("buckem_settle", "the rake descriptions follow the take, not the pot's units",
     '"all of a single pot" if single else', '"all of a single pot" if take == pot else'),
    ("deerpark_scoring", "distance_then_maker: a tie without the maker goes to the maker",
     "if game._maker is not None and game._maker in best:", "if game._maker is not None:"),
    ("deerpark_scoring", "the maker and defender reason texts swapped",
     'role = "the maker" if is_maker else "a defender"', 'role = "a defender" if is_maker else "the maker"'),
    ("deerpark_scoring", "a failing maker's reason text cites DEF #65",
     'cite = "DEF #66" if is_maker else "DEF #65"', 'cite = "DEF #65"'),
    ("core_py", "the Python core: a hand with bit 52 passes the batch legal_masks (all-cards mask widened)",
     "_FULL: Final = (1 << 52) - 1", "_FULL: Final = (1 << 53) - 1"),
    ("core_py", "the Python core: legal_mask refuses an int subclass equal to 255 (the lead's bound moved)",
     "check_id(lead, 0, 255, -3)", "check_id(lead, 0, 254, -3)"),
    ("core_py", "the Python core: legal_mask refuses an int subclass hand of all 52 cards",
     "check_id(hand, 0, (1 << 52) - 1, -7)", "check_id(hand, 0, (1 << 52) - 2, -7)"),
    ("tricks", "legal_plays: a CardSet of 53 bits reaches the core (all-cards mask widened)",
     "_FULL = (1 << 52) - 1", "_FULL = (1 << 53) - 1"),
    ("tricks", "the packing of tricks no longer checks for at least one card",
     'name: str = "cards", lo: int = 1) -> bytes:', 'name: str = "cards", lo: int = 0) -> bytes:'),
    ("tricks", "an empty list or tuple of cards passes the fast check of a trick",
     "if lo <= len(row) <= MAX_TRICK and len(set(row))", "if len(row) <= MAX_TRICK and len(set(row))"),
)  # fmt: skip
