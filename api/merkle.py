"""The Merkle tree of RFC 9162 (Certificate Transparency 2.0, section 2.1), over SHA-256.

`MerkleTree` is the server's side: an append-only tree of leaf hashes that builds roots,
inclusion proofs and consistency proofs against its current size or any older one. The
`verify_*` functions are the verifier's side (offline, third parties): they raise `ProofError`
on a proof that does not verify. Leaves are given as leaf hashes (`leaf_hash(data)`).

Edge cases the RFC leaves open (its consistency proofs are defined for 0 < size1 < size2): the
proof between equal sizes is empty, and verifies iff the roots are equal; the proof from size 0
is empty, and verifies iff root1 is `EMPTY_ROOT` (whatever root2 is: every tree extends the
empty one).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

HASH_BYTES = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()  # MTH({}), the root of a tree of size 0


class ProofError(ValueError):
    """A proof that does not verify; the message says why."""


def leaf_hash(data: bytes) -> bytes:
    """SHA-256(0x00 || data): the hash of a leaf."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right): the hash of an interior node."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than `n` (n > 1): where the RFC splits a tree."""
    return 1 << ((n - 1).bit_length() - 1)


def _check_hash(value: bytes, what: str, error: type[ValueError]) -> None:
    if len(value) != HASH_BYTES:
        raise error(f"The {what} is {len(value)} bytes long instead of {HASH_BYTES}.")


class MerkleTree:
    """An append-only Merkle tree over leaf hashes, with roots and proofs for any past size.

    The hash of every complete, aligned subtree (2**h leaves from a multiple of 2**h) is kept,
    level by level, as leaves arrive: these never change, so a root costs O(log n) hashes and a
    proof O(log² n), for about two stored hashes per leaf.
    """

    def __init__(self, leaf_hashes: Iterable[bytes] = ()) -> None:
        self._levels: list[bytearray] = []  # _levels[h]: the hashes of the 2**h-leaf subtrees
        self._size = 0
        self.extend(leaf_hashes)

    @property
    def size(self) -> int:
        """The number of leaves."""
        return self._size

    def append(self, leaf_hash: bytes) -> int:
        """Adds a leaf (its hash) and returns its index."""
        _check_hash(leaf_hash, "leaf hash", ValueError)
        index = self._size
        node, level, position = bytes(leaf_hash), 0, index
        while True:
            if level == len(self._levels):
                self._levels.append(bytearray())
            self._levels[level] += node
            if position % 2 == 0:  # a left child: its parent is not complete yet
                break
            node = node_hash(self._stored(level, position - 1), node)
            level, position = level + 1, position // 2
        self._size += 1
        return index

    def extend(self, leaf_hashes: Iterable[bytes]) -> None:
        """Appends leaves (their hashes) in order."""
        for leaf in leaf_hashes:
            self.append(leaf)

    def root(self, size: int | None = None) -> bytes:
        """MTH of the first `size` leaves (all of them by default)."""
        size = self._check_size(size)
        return self._mth(0, size) if size else EMPTY_ROOT

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """PATH(index, D[0:size]) (RFC 9162 2.1.3.1), from the leaf's sibling up."""
        size = self._check_size(size)
        if not 0 <= index < size:
            raise ValueError(f"Leaf index {index} is out of range for a tree of size {size}.")
        return self._path(index, 0, size)

    def consistency_proof(self, size1: int, size2: int | None = None) -> list[bytes]:
        """PROOF(size1, D[0:size2]) (RFC 9162 2.1.4.1); empty if size1 is 0 or size2."""
        size2 = self._check_size(size2)
        if not 0 <= size1 <= size2:
            raise ValueError(f"Size {size1} is out of range for a proof to size {size2}.")
        if size1 in (0, size2):
            return []
        return self._subproof(size1, 0, size2, True)

    def _check_size(self, size: int | None) -> int:
        if size is None:
            return self._size
        if not 0 <= size <= self._size:
            raise ValueError(f"Size {size} is out of range for a tree of {self._size} leaves.")
        return size

    def leaf(self, index: int) -> bytes:
        """The hash of leaf `index`."""
        if not 0 <= index < self._size:
            raise ValueError(f"Leaf {index} is out of range for a tree of {self._size} leaves.")
        return self._stored(0, index)

    def _stored(self, level: int, position: int) -> bytes:
        start = position * HASH_BYTES
        return bytes(self._levels[level][start : start + HASH_BYTES])

    def _mth(self, start: int, end: int) -> bytes:
        """MTH(D[start:end]), 0 <= start < end <= size."""
        n = end - start
        if n & (n - 1) == 0 and start % n == 0:  # a complete, aligned subtree: stored
            level = n.bit_length() - 1
            return self._stored(level, start >> level)
        k = _split(n)
        return node_hash(self._mth(start, start + k), self._mth(start + k, end))

    def _path(self, index: int, start: int, end: int) -> list[bytes]:
        """PATH(index - start, D[start:end])."""
        if end - start == 1:
            return []
        middle = start + _split(end - start)
        if index < middle:
            return [*self._path(index, start, middle), self._mth(middle, end)]
        return [*self._path(index, middle, end), self._mth(start, middle)]

    def _subproof(self, size1: int, start: int, end: int, whole: bool) -> list[bytes]:
        """SUBPROOF(size1 - start, D[start:end], whole)."""
        if size1 == end:
            return [] if whole else [self._mth(start, end)]
        middle = start + _split(end - start)
        if size1 <= middle:
            return [*self._subproof(size1, start, middle, whole), self._mth(middle, end)]
        return [*self._subproof(size1, middle, end, False), self._mth(start, middle)]


def root_of(leaf_hashes: Iterable[bytes]) -> bytes:
    """MTH of these leaf hashes."""
    return MerkleTree(leaf_hashes).root()


def verify_inclusion(
    index: int, size: int, leaf: bytes, proof: Sequence[bytes], root: bytes
) -> None:
    """Checks that `leaf` (a leaf hash) is leaf `index` of the tree of `size` leaves and
    `root`, by RFC 9162 2.1.3.2; raises ProofError if not."""
    _check_hash(leaf, "leaf hash", ProofError)
    _check_hash(root, "root", ProofError)
    for i, p in enumerate(proof):
        _check_hash(p, f"proof hash #{i}", ProofError)
    if not 0 <= index < size:
        raise ProofError(f"Leaf index {index} is out of range for a tree of size {size}.")
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            raise ProofError(f"The proof has more hashes than a tree of size {size} needs.")
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError(f"The proof has fewer hashes than a tree of size {size} needs.")
    if r != root:
        raise ProofError("The proof leads to another root than the one given.")


def verify_consistency(
    size1: int, size2: int, proof: Sequence[bytes], root1: bytes, root2: bytes
) -> None:
    """Checks that the tree of `size2` leaves and `root2` extends the tree of `size1` leaves
    and `root1`, by RFC 9162 2.1.4.2 (see the module for sizes 0 and equal sizes); raises
    ProofError if not."""
    _check_hash(root1, "first root", ProofError)
    _check_hash(root2, "second root", ProofError)
    for i, p in enumerate(proof):
        _check_hash(p, f"proof hash #{i}", ProofError)
    if not 0 <= size1 <= size2:
        raise ProofError(f"Size {size1} is out of range for a proof to size {size2}.")
    if size1 in (0, size2):
        if proof:
            raise ProofError(f"A proof from size {size1} to size {size2} must be empty.")
        if size1 == 0 and root1 != EMPTY_ROOT:
            raise ProofError("The first root is not the root of the empty tree.")
        if root1 != root2 and size1 == size2:
            raise ProofError(f"The roots differ though both trees have {size1} leaves.")
        return
    if not proof:
        raise ProofError(f"The proof from size {size1} to size {size2} is empty.")
    path = [root1, *proof] if size1 & (size1 - 1) == 0 else list(proof)
    fn, sn = size1 - 1, size2 - 1
    while fn % 2 == 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError(f"The proof has more hashes than sizes {size1}, {size2} need.")
        if fn % 2 == 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError(f"The proof has fewer hashes than sizes {size1}, {size2} need.")
    if fr != root1:
        raise ProofError("The proof leads to another first root than the one given.")
    if sr != root2:
        raise ProofError("The proof leads to another second root than the one given.")
