"""Which earlier cases sit on a deciding boundary (``hucklebuck.conformance.deciding``
declares the boundaries).  ``common.add`` writes these names under
``"deciding"``; a new case names its boundary with ``add(..., deciding=[...])``.
"""

from __future__ import annotations

#: case id -> the boundaries it decides.
EARLIER: dict[str, list[str]] = {
    # Hucklebuck
    "hucklebuck/end/target-exactly": ["hucklebuck/def-34-target-exactly"],
    "hucklebuck/end/tie-bidder-wins": ["hucklebuck/def-17-tie-bidder-wins"],
    "hucklebuck/end/tie-without-bidder-plays-on": ["hucklebuck/def-17-tie-without-bidder"],
    "hucklebuck/end/out-at-minus-25": ["hucklebuck/def-16-out-at-exactly-minus-25"],
    "hucklebuck/end/sole-survivor": ["hucklebuck/def-16-sole-survivor"],
    "hucklebuck/moon/wins-from-positive": ["hucklebuck/def-15-moon-from-positive"],
    "hucklebuck/moon/from-zero-reset-to-zero": ["hucklebuck/def-12-moon-from-exactly-zero"],
    "hucklebuck/scoring/variant-in-the-hole-any-bid": ["hucklebuck/def-13-any-bid-from-the-hole"],
    "hucklebuck/end/variant-target-11": ["hucklebuck.target=11"],
    "hucklebuck/auction/variant-dealer-must-bid": ["hucklebuck.all_pass=dealer_must_bid"],
    "hucklebuck/moon/from-zero-win": ["hucklebuck.moon_at_zero=win"],
    "hucklebuck/moon/from-zero-score-normally": ["hucklebuck.moon_at_zero=score_normally"],
    "hucklebuck/declare/variant-lone-moon-wins": ["hucklebuck.lone_moon_bidder=wins_game"],
    "hucklebuck/scoring/variant-penalty-stacks": ["hucklebuck.bidder_zero_trick_penalty_stacks=true"],
    "hucklebuck/end/variant-bidder-first": ["hucklebuck.tie_break=bidder_first"],
    "hucklebuck/end/variant-shared": ["hucklebuck.tie_break=shared"],
    "hucklebuck/exchange/variant-dealer-left-order": ["hucklebuck.exchange_order=dealer_left_dealer_last"],
    "hucklebuck/auction/variant-reentry": ["hucklebuck.auction_reentry=true"],
    # Buck 'Em
    "buckem/settle/equal-buckup": ["buckem/def-37-odd-pot-three-two"],
    "buckem/rake/king-pair": ["buckem/def-41-single-pot-raked-whole"],
    "buckem/rake/half-of-double": ["buckem/def-45-half-of-double"],
    "buckem/rake/no-face": ["buckem/def-43-rake-needs-a-face"],
    "buckem/ante/variant-ante-2": ["buckem.ante=int"],
    "buckem/short/short-deal": ["buckem.short_handed=true"],
    "buckem/short/removed-card-trump": ["buckem.short_handed_trump=removed_card"],
    "buckem/scare/forced-fold-illegal": ["buckem.scare_cards=true"],
    "buckem/swap/offered": ["buckem.deuce_swap=true"],
    "buckem/settle/variant-pot-limit": ["buckem.pot_limit=int"],
    "buckem/settle/odd-chip-carry": ["buckem.odd_chip=carry"],
    "buckem/settle/proportional": ["buckem.split=proportional"],
    "buckem/rake/variant-after-swap": ["buckem.rake_hand=after_swap"],
    "buckem/void/variant-no-ante": ["buckem.after_void_round_ante=false"],
    # Deer Park
    "deerpark/lock/locked-only-pass": ["deerpark/def-75-lock-at-45"],
    "deerpark/lock/44-may-call": ["deerpark/def-75-44-may-call"],
    "deerpark/end/reach-zero": ["deerpark/def-73-reach-zero"],
    "deerpark/end/reach-fifty": ["deerpark/def-73-reach-fifty"],
    "deerpark/end/equal-distance-maker": ["deerpark/def-74-equal-distance-maker"],
    "deerpark/trump/variant-club-pickup": ["deerpark.club_turnup_pickup=true"],
    "deerpark/trump/variant-round2-excludes": ["deerpark.round2_excludes_turned_suit=true"],
    "deerpark/scoring/variant-failed-tricks-count": ["deerpark.failed_contract_tricks_count=true"],
    "deerpark/play/variant-maker-leads": ["deerpark.first_lead=maker"],
    "deerpark/lock/variant-lock-at": ["deerpark.lock_at=int"],
    "deerpark/end/variant-shared": ["deerpark.tie_break=shared"],
}
