"""The proofs on their own: an honest shuffle or share verifies; any change to the statement or
to any field of the proof does not; a proof made for one context fails in another."""

from __future__ import annotations

import pytest

from lostcities.fair.codec import split
from lostcities.fair.derive import permutation, scalar_for
from lostcities.fair.items import item_table
from lostcities.fair.proofs import (
    SHARE_BYTES, ShuffleProof, open_share, share, shuffle, shuffle_proof_bytes, verify_shuffle,
)
from lostcities.fair.sodium import SodiumGroup

G = SodiumGroup()
SEED = bytes(range(32))
POINTS = item_table(G, "mixups", False).points
KEY = scalar_for(G, SEED, "key")
PERM = permutation(SEED, "perm", len(POINTS))


def honest() -> tuple[tuple[bytes, ...], ShuffleProof]:
    return shuffle(G, SEED, b"ctx", KEY, PERM, POINTS)


def test_an_honest_shuffle_verifies_and_round_trips() -> None:
    out, proof = honest()
    assert out == tuple(G.mult(KEY, POINTS[i]) for i in PERM)
    assert proof.key == G.base(KEY)
    assert verify_shuffle(G, b"ctx", POINTS, out, proof)
    data = proof.to_bytes()
    assert len(data) == shuffle_proof_bytes(len(POINTS))
    assert ShuffleProof.from_bytes(data, len(POINTS)) == proof
    assert shuffle(G, SEED, b"ctx", KEY, PERM, POINTS) == (out, proof)  # made again exactly


def test_a_proof_fails_in_another_context_or_for_other_inputs() -> None:
    out, proof = honest()
    assert not verify_shuffle(G, b"other", POINTS, out, proof)
    assert not verify_shuffle(G, b"ctx", POINTS[1:] + POINTS[:1], out, proof)


@pytest.mark.parametrize("change", ["swap", "replace", "rekey-one", "reverse"])
def test_outputs_that_are_not_that_shuffle_fail(change: str) -> None:
    out, proof = honest()
    forged = list(out)
    if change == "swap":
        forged[0], forged[1] = forged[1], forged[0]
    elif change == "replace":  # one item in twice, under the same key
        forged[-1] = G.mult(KEY, POINTS[PERM[0]])
    elif change == "rekey-one":  # one position under another key
        forged[2] = G.mult(G.mul(KEY, KEY), POINTS[PERM[2]])
    else:
        forged.reverse()
    assert not verify_shuffle(G, b"ctx", POINTS, tuple(forged), proof)


def test_every_field_of_a_proof_is_checked() -> None:
    out, proof = honest()
    data = proof.to_bytes()
    n = len(POINTS)
    values = list(split(data, 32))
    other_point = G.base(scalar_for(G, SEED, "other"))
    for index in range(len(values)):
        changed = list(values)
        if index == 0 or 6 <= index < 6 + 2 * n:  # a point: another valid point
            changed[index] = other_point if values[index] != other_point else G.base(KEY)
        else:  # a scalar: plus one
            changed[index] = G.scalar_add(values[index], (1).to_bytes(32, "little"))
        forged = ShuffleProof.from_bytes(b"".join(changed), n)
        assert not verify_shuffle(G, b"ctx", POINTS, out, forged), index


def test_a_share_opens_its_position_only_under_its_key_and_context() -> None:
    point = G.mult(KEY, POINTS[0])
    data = share(G, SEED, b"s", KEY, point)
    assert len(data) == SHARE_BYTES
    public = G.base(KEY)
    assert open_share(G, b"s", public, point, data) == POINTS[0]
    assert open_share(G, b"t", public, point, data) is None
    assert open_share(G, b"s", G.base(scalar_for(G, SEED, "x")), point, data) is None
    assert open_share(G, b"s", public, G.mult(KEY, POINTS[1]), data) is None
    s, c, z = split(data, 32)
    lie = G.mult(KEY, POINTS[1])  # the point of another item, with the proof kept
    assert open_share(G, b"s", public, point, lie + c + z) is None
    bumped = G.scalar_add(z, (1).to_bytes(32, "little"))
    assert open_share(G, b"s", public, point, s + c + bumped) is None
