"""The fair-play group (ristretto255, rbcl), the secrets derived from a match secret, and the
masking steps: the algebra the protocol stands on."""

from __future__ import annotations

import hashlib
import json

import pytest
import rbcl

from lostcities.fair.codec import decode, encode
from lostcities.fair.derive import (
    bound_to, permutation, pick_commitment, role_secrets, scope_seed,
)
from lostcities.fair.group import ORDER, is_scalar
from lostcities.fair.items import DECK_NAMES, deck_items, item_table
from lostcities.fair.masking import item_order
from lostcities.fair.proofs import open_share, share, shuffle, verify_shuffle
from lostcities.fair.sodium import SodiumGroup
from lostcities.fair.vectors import vectors

G = SodiumGroup()
VECTORS_SHA256 = "e88b7f24be4f6c046020b0bcab213030a994634762f20337d150055c6b0aeedb"


def scalar(label: str) -> bytes:
    return G.scalar(hashlib.sha512(label.encode()).digest())


def test_masks_commute_and_inverses_unmask() -> None:
    p = G.point(bytes(range(64)))
    a, b = scalar("a"), scalar("b")
    assert G.mult(a, G.mult(b, p)) == G.mult(b, G.mult(a, p)) != p
    assert G.mult(G.invert(a), G.mult(a, p)) == p
    assert G.mult(G.mul(a, b), p) == G.mult(a, G.mult(b, p))


def test_scalar_arithmetic_is_modulo_the_group_order() -> None:
    a, b = scalar("a"), scalar("b")
    ia, ib = int.from_bytes(a, "little"), int.from_bytes(b, "little")
    assert int.from_bytes(G.mul(a, b), "little") == ia * ib % ORDER
    assert int.from_bytes(G.invert(a), "little") == pow(ia, -1, ORDER)
    wide = hashlib.sha512(b"w").digest()
    assert int.from_bytes(G.scalar(wide), "little") == int.from_bytes(wide, "little") % ORDER
    minus_one = rbcl.crypto_core_ristretto255_scalar_negate((1).to_bytes(32, "little"))
    assert int.from_bytes(minus_one, "little") == ORDER - 1


def test_invalid_points_and_scalars_are_refused() -> None:
    good = G.point(bytes(range(64)))
    assert G.is_point(good)
    identity = G.point(bytes(64))  # the map sends all-zero input to the identity
    assert identity == bytes(32)
    negative = G.sub(identity, good)  # decodes; its encoding with the sign flipped does not
    assert G.is_point(negative)
    odd = bytes([negative[0] ^ 1]) + negative[1:]
    high_bit = good[:31] + bytes([good[31] | 0x80])  # the browser's libsodium refuses it
    for bad in (identity, b"\x01" + bytes(31), b"\xff" * 32, odd, high_bit, good[:31], b""):
        assert not G.is_point(bad)
    for call in (lambda: G.mult(scalar("a"), b"\xff" * 32), lambda: G.mult(scalar("a"), odd),
                 lambda: G.mult(scalar("a"), high_bit), lambda: G.add(good, odd),
                 lambda: G.sub(odd, good), lambda: G.add(high_bit, good)):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(ValueError):
        G.mult(bytes(32), good)  # the identity is never a valid product
    with pytest.raises(ValueError):
        G.invert(bytes(32))
    for s in (bytes(32), ORDER.to_bytes(32, "little"), b"\x01"):
        assert not is_scalar(s)
    assert is_scalar((ORDER - 1).to_bytes(32, "little"))


def test_every_item_has_its_own_point_in_the_group() -> None:
    for name in DECK_NAMES:
        table = item_table(G, name, True)
        assert len(set(table.points)) == len(table.items) == len(deck_items(name, True))
        assert all(G.is_point(p) for p in table.points)
    assert len(item_table(G, "cards", False).items) == 60
    assert len(item_table(G, "cards", True).items) == 72


def test_the_two_shuffles_deal_a_permutation_that_opens_only_with_both_shares() -> None:
    table = item_table(G, "cards", False)
    seeds = scope_seed(b"i" * 32, 1), scope_seed(b"o" * 32, 1)
    inner = role_secrets(G, seeds[0], "cards", 60, True)
    x, proof_x = shuffle(G, seeds[0], b"c1", inner.key, inner.perm, table.points)
    outer = role_secrets(G, seeds[1], "cards", 60, False, bound_to(x))
    y, proof_y = shuffle(G, seeds[1], b"c2", outer.key, outer.perm, x)
    assert verify_shuffle(G, b"c1", table.points, x, proof_x)
    assert verify_shuffle(G, b"c2", x, y, proof_y)
    order = item_order(inner.perm, outer.perm)
    assert sorted(order) == list(range(60))
    for j in (0, 17, 59):
        mine = share(G, seeds[0], b"s", inner.key, y[j])
        point = open_share(G, b"s", G.base(inner.key), y[j], mine)
        assert point is not None
        assert G.mult(G.invert(outer.key), point) == table.points[order[j]]
        # one key alone opens nothing; a share is for its own position only
        assert G.mult(G.invert(outer.key), y[j]) not in table.index
        assert open_share(G, b"s", G.base(inner.key), y[j - 1], mine) is None
    assert len(set(x)) == len(set(y)) == 60
    assert not set(table.points) & (set(x) | set(y))


def test_secrets_are_derived_per_scope_and_differ_between_roles() -> None:
    secret = bytes(range(32))
    assert scope_seed(secret, 1) != scope_seed(secret, 2) != scope_seed(secret, 0)
    seed = scope_seed(secret, 1)
    assert role_secrets(G, seed, "cards", 60, True) == role_secrets(G, seed, "cards", 60, True)
    assert role_secrets(G, seed, "cards", 60, True).key != role_secrets(
        G, seed, "objectives", 60, True).key
    # the second shuffler's secrets are bound to what it answers
    outer = role_secrets(G, seed, "cards", 60, False, bound_to([b"a" * 32]))
    other = role_secrets(G, seed, "cards", 60, False, bound_to([b"b" * 32]))
    assert outer.key != other.key and outer.perm != other.perm
    perm = permutation(seed, "p", 72)
    assert sorted(perm) == list(range(72)) and perm != tuple(range(72))
    nonce = scalar("k")
    assert pick_commitment(0, nonce) != pick_commitment(1, nonce)
    assert len(pick_commitment(0, nonce)) == 16


def test_base64_is_strict() -> None:
    data = bytes(range(32))
    text = encode(data)
    assert decode(text, 32) == data and "=" not in text
    for bad in (text + "=", text[:-1], text[:-1] + "!", text.replace(text[-1], "B"), 5, None):
        if bad != text:
            with pytest.raises(ValueError):
                decode(bad, 32)


def test_the_known_answer_vectors_are_stable() -> None:
    """The browser's libsodium adapter must reproduce these exact bytes (same function)."""
    found = vectors(G)
    assert found["valid"] == [True, False, False, False, False, False]
    table = item_table(G, "jobs", False)
    assert sorted(found["deck"]["opened"]) == list(range(len(table.items)))
    digest = hashlib.sha256(json.dumps(found, sort_keys=True).encode()).hexdigest()
    assert digest == VECTORS_SHA256
