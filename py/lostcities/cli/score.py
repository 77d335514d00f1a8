"""``python -m lostcities score CARD...``: score one expedition (a calculator for the box too)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..scoring import ScoringRules, parse_expedition, score_values


def build_parser() -> argparse.ArgumentParser:
    """The ``score`` command's argument parser."""
    p = argparse.ArgumentParser(
        prog="python -m lostcities score",
        description="Score one expedition. Cards as in the rules: H for a handshake, 2-10 for "
        "numbers, or with a colour (RH, R7) if all are the same colour. "
        "Example: score H H 4 5 6 7 8 10  ->  80",
    )
    p.add_argument("cards", nargs="*", metavar="CARD", help="H, 2..10, or RH, R2..R10")
    p.add_argument("--cost", type=int, default=20, help="expedition cost (default 20)")
    p.add_argument("--bonus-cards", type=int, default=8,
                   help="cards needed for the bonus (default 8)")
    p.add_argument("--bonus", type=int, default=20, help="bonus size (default 20)")
    p.add_argument("--no-loss-multiplier", action="store_true",
                   help="handshakes do not multiply a loss (Financier, Safety Net)")
    p.add_argument("--golden-tens", action="store_true", help="a 10 counts 15")
    p.add_argument("--breakdown", action="store_true",
                   help="also print sum, cost, multiplier and bonus")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Print the score; on bad input print a message to stderr and return 2."""
    args = build_parser().parse_args(argv)
    try:
        values = parse_expedition(args.cards)
    except ValueError as exc:
        print(f"lostcities score: error: {exc}", file=sys.stderr)
        return 2
    if args.bonus_cards < 1:
        print("lostcities score: error: --bonus-cards must be at least 1", file=sys.stderr)
        return 2
    rules = ScoringRules(
        cost=args.cost, bonus_cards=args.bonus_cards, bonus=args.bonus,
        loss_multiplied=not args.no_loss_multiplier, ten_value=15 if args.golden_tens else 10,
    )
    result = score_values(values, rules)
    if args.breakdown:
        print(f"cards {result.cards}, sum {result.sum}, cost {result.cost}, "
              f"multiplier {result.multiplier}, bonus {result.bonus}")
    print(result.score)
    return 0
