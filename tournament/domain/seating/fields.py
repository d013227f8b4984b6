"""Small finite fields GF(q) and products of them, as addition and multiplication tables.

An element of GF(p^k) is numbered by its polynomial's coefficients read as a base-p number:
coefficient of x^i is digit i.  Why a product of fields will do for the four-groups design and
inflation: docs/seating.md, "Finite fields and rings".
"""

from __future__ import annotations

from functools import cache
from itertools import product


def prime_power(order: int) -> tuple[int, int] | None:
    """(p, k) with p prime and p**k == order, or None when order is not a prime power."""
    if order < 2:
        return None
    p = next(d for d in range(2, order + 1) if order % d == 0)
    k, rest = 0, order
    while rest % p == 0:
        rest //= p
        k += 1
    return (p, k) if rest == 1 else None


def prime_power_factors(order: int) -> list[int]:
    """The prime-power factors of `order`, smallest prime first: 180 -> [4, 9, 5]."""
    factors = []
    rest = order
    d = 2
    while rest > 1:
        if rest % d == 0:
            power = 1
            while rest % d == 0:
                rest //= d
                power *= d
            factors.append(power)
        d += 1
    return factors


def _poly_mod(poly: list[int], modulus: list[int], p: int) -> list[int]:
    """`poly` reduced modulo the monic `modulus` over GF(p); coefficients lowest first."""
    poly = poly[:]
    degree = len(modulus) - 1
    for top in range(len(poly) - 1, degree - 1, -1):
        factor = poly[top] % p
        if factor:
            for i, coefficient in enumerate(modulus):
                poly[top - degree + i] = (poly[top - degree + i] - factor * coefficient) % p
    return [c % p for c in poly[:degree]] + [0] * max(0, degree - len(poly))


def _is_irreducible(modulus: list[int], p: int) -> bool:
    degree = len(modulus) - 1
    for d in range(1, degree // 2 + 1):
        for lower in product(range(p), repeat=d):
            divisor = [*lower, 1]
            if not any(_poly_mod(modulus, divisor, p)):
                return False
    return True


def _irreducible(p: int, k: int) -> list[int]:
    """The first monic irreducible polynomial of degree k over GF(p), in counting order."""
    for lower in product(range(p), repeat=k):
        modulus = [*reversed(lower), 1]
        if modulus[0] and _is_irreducible(modulus, p):
            return modulus
    raise AssertionError(f"no irreducible polynomial of degree {k} over GF({p})")


class FiniteField:
    """GF(order) for a prime power `order`; elements are the integers 0 .. order - 1."""

    def __init__(self, order: int) -> None:
        power = prime_power(order)
        if power is None:
            raise ValueError(f"{order} is not a prime power: there is no field of that order")
        p, k = power
        self.order = order
        self.characteristic = p
        self.modulus = _irreducible(p, k) if k > 1 else [0, 1]
        digits = [[(e // p**i) % p for i in range(k)] for e in range(order)]

        def number(coefficients: list[int]) -> int:
            return sum(c * p**i for i, c in enumerate(coefficients))

        def times(a: list[int], b: list[int]) -> list[int]:
            poly = [0] * (2 * k - 1)
            for i, x in enumerate(a):
                for j, y in enumerate(b):
                    poly[i + j] += x * y
            return _poly_mod(poly, self.modulus, p) if k > 1 else [poly[0] % p]

        self.add: tuple[tuple[int, ...], ...] = tuple(
            tuple(number([(x + y) % p for x, y in zip(a, b, strict=True)]) for b in digits)
            for a in digits
        )
        self.mul: tuple[tuple[int, ...], ...] = tuple(
            tuple(number(times(a, b)) for b in digits) for a in digits
        )

    def __repr__(self) -> str:
        return f"GF({self.order})"


class ProductRing:
    """The product of fields GF(q1) x GF(q2) x ..., elements numbered in mixed radix."""

    def __init__(self, orders: list[int]) -> None:
        self.fields = [FiniteField(q) for q in orders]
        self.order = 1
        for q in orders:
            self.order *= q
        parts = [self.components(e) for e in range(self.order)]
        self.add = tuple(
            tuple(
                self.element([f.add[x][y] for f, x, y in zip(self.fields, a, b, strict=True)])
                for b in parts
            )
            for a in parts
        )
        self.mul = tuple(
            tuple(
                self.element([f.mul[x][y] for f, x, y in zip(self.fields, a, b, strict=True)])
                for b in parts
            )
            for a in parts
        )

    def components(self, element: int) -> list[int]:
        parts = []
        for field in self.fields:
            element, part = divmod(element, field.order)
            parts.append(part)
        return parts

    def element(self, components: list[int]) -> int:
        number, scale = 0, 1
        for field, part in zip(self.fields, components, strict=True):
            number += part * scale
            scale *= field.order
        return number

    def constant(self, value: int) -> int:
        """The element that is `value` in every factor (needs value < every factor's order)."""
        return self.element([value] * len(self.fields))


@cache
def ring_with_four_units_apart(order: int) -> ProductRing | None:
    """A ring of `order` elements where 0, 1, 2, 3 differ by units, or None if we have none.

    Exists when every prime-power factor of `order` is at least 4 (so 12 = 4 x 3 has none).
    """
    factors = prime_power_factors(order)
    if order < 4 or any(q < 4 for q in factors):
        return None
    return ProductRing(factors)
