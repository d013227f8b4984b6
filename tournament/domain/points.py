"""Table points and scores as the standings and the exports write them: rounded to two
decimals where a share or a carried fraction leaves no whole number."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction


def points_as_decimal(points: Fraction) -> Decimal:
    """Table points rounded to two decimals: 7/3 -> 2.33, 7/4 -> 1.75, 3 -> 3.00."""
    # Precision enough for any size: table points within their range never come near the
    # default 28 digits, but a value stored before the range was checked must not stop an export.
    digits = len(str(abs(points.numerator))) + len(str(points.denominator)) + 4
    with localcontext(prec=max(28, digits)):
        exact = Decimal(points.numerator) / Decimal(points.denominator)
        return exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def shown_score(score: int | Fraction) -> int | Decimal:
    """A score as the standings show it: whole, or (a finalist's carried fraction) to two
    decimals."""
    if isinstance(score, int) or score.denominator == 1:
        return int(score)
    return (Decimal(score.numerator) / Decimal(score.denominator)).quantize(Decimal("0.01"))
