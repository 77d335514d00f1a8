"""Non-interactive zero-knowledge proofs that a page did what the protocol says.

Two proofs, both sigma protocols made non-interactive by Fiat–Shamir (every challenge is a hash
of the statement, the context and the prover's first message):

- **A shuffle of exponentiation kind**: ``Y_i = k * X[perm[i]]`` for a secret permutation and a
  secret key ``k`` whose public key is ``K = k * G``. The construction is Terelius and
  Wikström's proof of a shuffle ("Proofs of Restricted Shuffles", AFRICACRYPT 2010), as the
  pseudo-code of Haenni, Locher, Koenig and Dubuis gives it for re-encryption ("Pseudo-Code
  Algorithms for Verifiable Re-Encryption Mix-Nets", FC 2017), with the re-encryption part
  replaced by a proof of ``sum(u'_i * Y_i) = k * sum(u_j * X_j)``: the prover commits to the
  permutation matrix with Pedersen commitments, proves it is one (the columns sum to ones, and
  a chain of commitments shows the product of the permuted challenges is theirs), and that the
  outputs are the inputs permuted the same way under ``k``.
- **Discrete-log equality** (Chaum and Pedersen, "Wallet Databases with Observers",
  CRYPTO '92): ``log_G(K) = log_S(Y)``: a share ``S = Y / k`` is the point ``Y`` with the key
  of ``K`` taken off, and nothing else.

Every operation is libsodium's, through ``Group``; the nonces derive from the prover's seed and
the statement (so a proof is made again byte for byte, and one nonce never serves two
statements). Independent generators come from hashing to the curve: nobody knows a discrete
logarithm between any two of them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .codec import split
from .derive import DOMAIN
from .group import POINT_BYTES, SCALAR_BYTES, Group, is_canonical

ZERO = bytes(SCALAR_BYTES)
ONE = (1).to_bytes(SCALAR_BYTES, "little")
SHARE_BYTES = POINT_BYTES + 2 * SCALAR_BYTES
"""A share on the wire: the point ``S``, then the proof's challenge and response."""


def shuffle_proof_bytes(n: int) -> int:
    """The size of a shuffle proof of ``n`` items: the public key, the challenge, four
    responses, and ``n`` commitments, chain links and two responses each."""
    return 6 * SCALAR_BYTES + 4 * n * SCALAR_BYTES


# ---------------------------------------------------------------------- hashing


def _hash(*parts: bytes) -> bytes:
    h = hashlib.sha512()
    for part in parts:
        h.update(len(part).to_bytes(4, "little"))
        h.update(part)
    return h.digest()


def _scalars(group: Group, seed: bytes, count: int) -> list[bytes]:
    """``count`` scalars, uniform modulo the order, from a 64-byte seed."""
    stream = hashlib.shake_256(DOMAIN + b"stream/" + seed).digest(64 * count)
    return group.scalars([stream[64 * i:64 * i + 64] for i in range(count)])


def _challenge(group: Group, label: bytes, *parts: bytes) -> bytes:
    return group.scalar(_hash(DOMAIN + label, *parts))


_GENERATORS: dict[tuple[str, int], tuple[bytes, ...]] = {}


def generators(group: Group, n: int) -> tuple[bytes, ...]:
    """``n + 1`` independent generators (hashed to the curve): the chain's start, then one per
    position for the permutation commitments."""
    key = (group.name, n)
    found = _GENERATORS.get(key)
    if found is None:
        found = _GENERATORS[key] = tuple(
            group.point(hashlib.sha512(DOMAIN + b"generator/%d" % i).digest())
            for i in range(n + 1))
    return found


def _pairwise(values: list[bytes], step: Callable[[list[bytes], list[bytes]], list[bytes]],
              empty: bytes) -> bytes:
    """``values`` folded by ``step`` pair by pair (a batch call per level of a tree)."""
    if not values:
        return empty
    while len(values) > 1:
        odd = values[-1:] if len(values) % 2 else []
        values = step(values[0:-1:2] if odd else values[0::2], values[1::2]) + odd
    return values[0]


def _generator_sum(group: Group, n: int) -> bytes:
    """The sum of the ``n`` generators of the permutation commitments (made once)."""
    key = (group.name, -n)
    found = _GENERATORS.get(key)
    if found is None:
        found = _GENERATORS[key] = (_point_sum(group, generators(group, n)[1:]),)
    return found[0]


def _total(group: Group, scalars: Sequence[bytes]) -> bytes:
    return _pairwise(list(scalars), lambda a, b: group.muladds([ONE] * len(a), a, b), ZERO)


def _product(group: Group, scalars: Sequence[bytes]) -> bytes:
    return _pairwise(list(scalars), lambda a, b: group.muladds(a, b, [ZERO] * len(a)), ONE)


def _point_sum(group: Group, points: Sequence[bytes]) -> bytes:
    return _pairwise(list(points), group.adds, b"")


def _prefix_products(group: Group, scalars: Sequence[bytes]) -> list[bytes]:
    """``[1, s_1, s_1 s_2, ...]``: each product of the first ``i`` (a batch call per doubling
    of the span, Hillis and Steele's scan)."""
    out = list(scalars)
    span = 1
    while span < len(out):
        out = out[:span] + group.muladds(out[span:], out[:-span], [ZERO] * (len(out) - span))
        span *= 2
    return [ONE, *out]


def _negs(group: Group, scalars: Sequence[bytes]) -> list[bytes]:
    return group.muladds([_neg(group, ONE)] * len(scalars), scalars, [ZERO] * len(scalars))


def _neg(group: Group, s: bytes) -> bytes:
    return group.scalar_sub(ZERO, s)


# ---------------------------------------------------------------------- the shuffle


@dataclass(frozen=True)
class ShuffleProof:
    """A proof that ``outputs`` are ``inputs`` permuted, all under the key of ``key``."""

    key: bytes
    challenge: bytes
    responses: tuple[bytes, bytes, bytes, bytes]
    commits: tuple[bytes, ...]
    chain: tuple[bytes, ...]
    chain_responses: tuple[bytes, ...]
    perm_responses: tuple[bytes, ...]

    def to_bytes(self) -> bytes:
        """The proof as sent: fixed fields, then the four vectors."""
        return b"".join((self.key, self.challenge, *self.responses, *self.commits,
                         *self.chain, *self.chain_responses, *self.perm_responses))

    @classmethod
    def from_bytes(cls, data: bytes, n: int) -> ShuffleProof:
        """The proof of ``n`` items in ``data``; ``ValueError`` unless sized and canonical
        (points are checked by the caller, with the message's other points)."""
        if len(data) != shuffle_proof_bytes(n):
            raise ValueError(f"a shuffle proof of {n} items is {shuffle_proof_bytes(n)} bytes")
        values = split(data, SCALAR_BYTES)
        scalars = (*values[1:6], *values[6 + 2 * n:])
        if not all(is_canonical(s) for s in scalars):
            raise ValueError("a shuffle proof holds a scalar that is not canonical")
        return cls(values[0], values[1], (values[2], values[3], values[4], values[5]),
                   values[6:6 + n], values[6 + n:6 + 2 * n], values[6 + 2 * n:6 + 3 * n],
                   values[6 + 3 * n:])

    def points(self) -> tuple[bytes, ...]:
        """Every point the proof holds (each must be checked to be in the group)."""
        return (self.key, *self.commits, *self.chain)


def _perm_challenges(group: Group, context: bytes, inputs: Sequence[bytes],
                     outputs: Sequence[bytes], key: bytes,
                     commits: Sequence[bytes]) -> list[bytes]:
    seed = _hash(DOMAIN + b"shuffle/u", context, b"".join(inputs), b"".join(outputs), key,
                 b"".join(commits))
    return _scalars(group, seed, len(inputs))


def _final_challenge(group: Group, context: bytes, inputs: Sequence[bytes],
                     outputs: Sequence[bytes], key: bytes, commits: Sequence[bytes],
                     chain: Sequence[bytes], t: Sequence[bytes],
                     t_chain: Sequence[bytes]) -> bytes:
    return _challenge(group, b"shuffle/c", context, b"".join(inputs), b"".join(outputs), key,
                      b"".join(commits), b"".join(chain), b"".join(t), b"".join(t_chain))


def shuffle(group: Group, seed: bytes, context: bytes, key: bytes, perm: Sequence[int],
            inputs: Sequence[bytes]) -> tuple[tuple[bytes, ...], ShuffleProof]:
    """``inputs`` in the order ``perm`` under ``key`` (output ``i`` is ``key *
    inputs[perm[i]]``), and the proof of it. ``seed`` (secret, 32+ bytes) makes the proof's
    randomness; ``context`` names what is shuffled (both pages must give the same)."""
    n = len(inputs)
    outputs = tuple(group.mults([key] * n, [inputs[i] for i in perm]))
    public = group.base(key)
    start, *h = generators(group, n)
    where = [0] * n  # where[j]: the output position of input j
    for i, j in enumerate(perm):
        where[j] = i
    nonce_seed = _hash(DOMAIN + b"shuffle/nonce", seed, context, b"".join(inputs),
                       b"".join(outputs))
    r = _scalars(group, nonce_seed + b"r", n)
    x = _scalars(group, nonce_seed + b"chain", n)
    w1, w2, w3, w4 = _scalars(group, nonce_seed + b"w", 4)
    w_chain = _scalars(group, nonce_seed + b"w-chain", n)
    w_perm = _scalars(group, nonce_seed + b"w-perm", n)
    commits = tuple(group.adds(group.bases(r), [h[where[j]] for j in range(n)]))
    u = _perm_challenges(group, context, inputs, outputs, public, commits)
    u_perm = [u[perm[i]] for i in range(n)]
    # The chain: c_i = r_chain_i * G + u'_i * c_(i-1) from c_0 = start, drawn as
    # c_i = x_i * G + p_i * start with x_i at random and p_i the products of u'_1..u'_i.
    p = _prefix_products(group, u_perm)
    x_before = [ZERO, *x[:-1]]
    r_chain = group.muladds(_negs(group, u_perm), x_before, x)
    chain = tuple(group.adds(group.bases(x), group.mults(p[1:], [start] * n)))
    r_bar = _total(group, r)
    r_tilde = _total(group, group.muladds(u, r, [ZERO] * n))
    t = [
        group.base(w1),
        group.base(w2),
        group.add(group.base(w3), group.combine(w_perm, h)),
        # sum(w_perm_i * Y_i) - w4 * sum(u_j * X_j), as one sum over the inputs
        group.combine(group.muladds([key] * n, [w_perm[where[j]] for j in range(n)],
                                    group.muladds([_neg(group, w4)] * n, u, [ZERO] * n)),
                      inputs),
        group.base(w4),
    ]
    # t_chain_i = w_chain_i * G + w_perm_i * c_(i-1), with c_(i-1) = x_(i-1) G + p_(i-1) start
    t_chain = group.adds(group.bases(group.muladds(w_perm, x_before, w_chain)),
                         group.mults(group.muladds(w_perm, p[:-1], [ZERO] * n), [start] * n))
    c = _final_challenge(group, context, inputs, outputs, public, commits, chain, t, t_chain)
    minus_c = [_neg(group, c)] * n
    responses = (group.scalar_sub(w1, group.mul(c, r_bar)),
                 group.scalar_sub(w2, group.mul(c, x[-1])),
                 group.scalar_sub(w3, group.mul(c, r_tilde)),
                 group.scalar_sub(w4, group.mul(c, key)))
    proof = ShuffleProof(public, c, responses, commits, chain,
                         tuple(group.muladds(minus_c, r_chain, w_chain)),
                         tuple(group.muladds(minus_c, u_perm, w_perm)))
    return outputs, proof


def verify_shuffle(group: Group, context: bytes, inputs: Sequence[bytes],
                   outputs: Sequence[bytes], proof: ShuffleProof) -> bool:
    """Whether ``proof`` shows ``outputs`` to be ``inputs`` permuted under ``proof.key``.
    Every point (inputs, outputs, the proof's) must already be checked to be in the group."""
    n = len(inputs)
    if n < 2 or len(outputs) != n or len(proof.commits) != n:
        return False
    try:
        return _verify_shuffle(group, context, inputs, outputs, proof)
    except ValueError:  # a crafted value made the identity somewhere
        return False


def _verify_shuffle(group: Group, context: bytes, inputs: Sequence[bytes],
                    outputs: Sequence[bytes], proof: ShuffleProof) -> bool:
    n = len(inputs)
    start, *h = generators(group, n)
    c = proof.challenge
    s1, s2, s3, s4 = proof.responses
    u = _perm_challenges(group, context, inputs, outputs, proof.key, proof.commits)
    commit_sum = group.sub(_point_sum(group, proof.commits), _generator_sum(group, n))
    u_product = _product(group, u)
    chain_end = group.sub(proof.chain[-1], group.mult(u_product, start))
    zeros = [ZERO] * n
    t = [
        group.add(group.mult(c, commit_sum), group.base(s1)),
        group.add(group.mult(c, chain_end), group.base(s2)),
        group.add(group.combine(group.muladds([c] * n, u, zeros) + list(proof.perm_responses),
                                [*proof.commits, *h]), group.base(s3)),
        group.combine(list(proof.perm_responses)
                      + group.muladds([_neg(group, s4)] * n, u, zeros), [*outputs, *inputs]),
        group.add(group.mult(c, proof.key), group.base(s4)),
    ]
    before = [start, *proof.chain[:-1]]
    t_chain = group.adds(group.adds(group.mults([c] * n, proof.chain),
                                    group.mults(proof.perm_responses, before)),
                         group.bases(proof.chain_responses))
    return c == _final_challenge(group, context, inputs, outputs, proof.key, proof.commits,
                                 proof.chain, t, t_chain)


# ---------------------------------------------------------------------- shares


def share(group: Group, seed: bytes, context: bytes, key: bytes, point: bytes) -> bytes:
    """``point`` with ``key`` taken off (``S = point / key``) and the proof that it is so:
    ``S``, the challenge and the response (``SHARE_BYTES``)."""
    public = group.base(key)
    s = group.mult(group.invert(key), point)
    (w,) = _scalars(group, _hash(DOMAIN + b"share/nonce", seed, context, public, s, point), 1)
    t1, t2 = group.base(w), group.mult(w, s)
    c = _challenge(group, b"share/c", context, public, s, point, t1, t2)
    return s + c + group.scalar_add(w, group.mul(c, key))


def open_share(group: Group, context: bytes, public: bytes, point: bytes,
               data: bytes) -> bytes | None:
    """The point ``S`` of a share of ``point`` under the key of ``public``, or ``None`` if its
    proof fails (``S`` must already be checked to be in the group)."""
    s, c, z = split(data, SCALAR_BYTES)
    try:
        t1 = group.sub(group.base(z), group.mult(c, public))
        t2 = group.sub(group.mult(z, s), group.mult(c, point))
    except ValueError:
        return None
    return s if c == _challenge(group, b"share/c", context, public, s, point, t1, t2) else None
