"""The RFC 9162 Merkle tree (api/merkle.py): known answers from Certificate Transparency's
reference tests, agreement with a naive implementation of the RFC's recursive definitions,
and every kind of broken proof rejected."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api import merkle
from api.merkle import (
    EMPTY_ROOT,
    HASH_BYTES,
    MerkleTree,
    ProofError,
    leaf_hash,
    node_hash,
    root_of,
    verify_consistency,
    verify_inclusion,
)

# Known answers: the numbers of transparency-dev/merkle (Go, Apache 2.0), from the tests of
# google/certificate-transparency: testonly/constants.go (LeafInputs, NodeHashes, RootHashes)
# and proof/verify_test.go (inclusionProofs, whose leaf numbers are 1-based there and are
# 0-based indexes here, and consistencyProofs).
LEAF_INPUTS = [
    bytes.fromhex(h)
    for h in (
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    )
]
LEAF_HASHES = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
    "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
    "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
    "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
    "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1",
]
NODE_HASHES = {  # (level, index) -> MTH of leaves [index * 2**level, (index + 1) * 2**level)
    (1, 0): "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    (1, 1): "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
    (1, 2): "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
    (1, 3): "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
    (2, 0): "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    (2, 1): "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    (3, 0): "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
}
ROOTS = [  # by tree size, from 0
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
INCLUSION_PROOFS = [  # (index, size, proof)
    (0, 1, []),
    (0, 8, [LEAF_HASHES[1], NODE_HASHES[1, 1], NODE_HASHES[2, 1]]),
    (5, 8, [LEAF_HASHES[4], NODE_HASHES[1, 3], NODE_HASHES[2, 0]]),
    (2, 3, [NODE_HASHES[1, 0]]),
    (1, 5, [LEAF_HASHES[0], NODE_HASHES[1, 1], LEAF_HASHES[4]]),
]
CONSISTENCY_PROOFS = [  # (size1, size2, proof)
    (1, 1, []),
    (1, 8, [LEAF_HASHES[1], NODE_HASHES[1, 1], NODE_HASHES[2, 1]]),
    (6, 8, [NODE_HASHES[1, 2], NODE_HASHES[1, 3], NODE_HASHES[2, 0]]),
    (2, 5, [NODE_HASHES[1, 1], LEAF_HASHES[4]]),
    (6, 7, [NODE_HASHES[1, 2], LEAF_HASHES[6], NODE_HASHES[2, 0]]),
]
KNOWN_TREE = MerkleTree(leaf_hash(data) for data in LEAF_INPUTS)


def unhex(hashes: Sequence[str]) -> list[bytes]:
    return [bytes.fromhex(h) for h in hashes]


class Reference:
    """MTH, PATH and PROOF as RFC 9162 defines them (2.1.1, 2.1.3.1, 2.1.4.1), recursively, over
    leaf hashes (so MTH({d}) is d itself), hashing by hand; D[start:end] is kept as a range,
    and MTH memoized, only to keep the tests fast."""

    def __init__(self, leaves: Sequence[bytes]) -> None:
        self.d = tuple(leaves)
        self.memo: dict[tuple[int, int], bytes] = {}

    @staticmethod
    def k(n: int) -> int:
        """The largest power of two smaller than n."""
        k = 1
        while k * 2 < n:
            k *= 2
        return k

    def mth(self, start: int, end: int) -> bytes:
        n = end - start
        if n == 0:
            return hashlib.sha256(b"").digest()
        if n == 1:
            return self.d[start]
        if (start, end) not in self.memo:
            k = self.k(n)
            left, right = self.mth(start, start + k), self.mth(start + k, end)
            self.memo[start, end] = hashlib.sha256(b"\x01" + left + right).digest()
        return self.memo[start, end]

    def path(self, m: int, start: int, end: int) -> list[bytes]:
        """PATH(m, D[start:end]), m counted from start."""
        n = end - start
        if n == 1:
            return []
        k = self.k(n)
        if m < k:
            return [*self.path(m, start, start + k), self.mth(start + k, end)]
        return [*self.path(m - k, start + k, end), self.mth(start, start + k)]

    def subproof(self, m: int, start: int, end: int, b: bool) -> list[bytes]:
        """SUBPROOF(m, D[start:end], b), m counted from start."""
        n = end - start
        if m == n:
            return [] if b else [self.mth(start, end)]
        k = self.k(n)
        if m <= k:
            return [*self.subproof(m, start, start + k, b), self.mth(start + k, end)]
        return [*self.subproof(m - k, start + k, end, False), self.mth(start, start + k)]

    def proof(self, m: int, n: int) -> list[bytes]:
        """PROOF(m, D[0:n]), 0 < m < n."""
        return self.subproof(m, 0, n, True)


def make_leaves(salt: bytes, n: int) -> list[bytes]:
    return [leaf_hash(salt + i.to_bytes(4, "big")) for i in range(n)]


def flipped(value: bytes, position: int = 0, mask: int = 1) -> bytes:
    position %= len(value)
    return value[:position] + bytes([value[position] ^ mask]) + value[position + 1 :]


def rejects(verify: Callable[..., None], *args: object) -> bool:
    try:
        verify(*args)
    except ProofError:
        return True
    return False


def leaf_lists(min_size: int = 1) -> st.SearchStrategy[list[bytes]]:
    return st.builds(make_leaves, st.binary(max_size=8), st.integers(min_size, 300))


REFERENCE = settings(max_examples=60)
PROBES = settings(max_examples=200)


# Known answers.


def test_hashes_match_the_known_answers() -> None:
    assert EMPTY_ROOT.hex() == ROOTS[0]
    assert [leaf_hash(data).hex() for data in LEAF_INPUTS] == LEAF_HASHES
    for (level, index), expected in NODE_HASHES.items():
        half = 1 << (level - 1)
        start = index * 2 * half
        left = root_of(unhex(LEAF_HASHES[start : start + half]))
        right = root_of(unhex(LEAF_HASHES[start + half : start + 2 * half]))
        assert node_hash(left, right).hex() == expected


@pytest.mark.parametrize("size", range(9))
def test_roots_match_the_known_answers(size: int) -> None:
    assert KNOWN_TREE.root(size).hex() == ROOTS[size]
    assert MerkleTree(unhex(LEAF_HASHES[:size])).root().hex() == ROOTS[size]
    assert root_of(leaf_hash(data) for data in LEAF_INPUTS[:size]).hex() == ROOTS[size]


@pytest.mark.parametrize(("index", "size", "proof"), INCLUSION_PROOFS)
def test_inclusion_proofs_match_the_known_answers(index: int, size: int, proof: list[str]) -> None:
    assert KNOWN_TREE.inclusion_proof(index, size) == unhex(proof)
    root = bytes.fromhex(ROOTS[size])
    verify_inclusion(index, size, bytes.fromhex(LEAF_HASHES[index]), unhex(proof), root)


@pytest.mark.parametrize(("size1", "size2", "proof"), CONSISTENCY_PROOFS)
def test_consistency_proofs_match_the_known_answers(
    size1: int, size2: int, proof: list[str]
) -> None:
    assert KNOWN_TREE.consistency_proof(size1, size2) == unhex(proof)
    root1, root2 = bytes.fromhex(ROOTS[size1]), bytes.fromhex(ROOTS[size2])
    verify_consistency(size1, size2, unhex(proof), root1, root2)


# The tree's own API.


def test_append_returns_the_index_and_extend_appends_in_order() -> None:
    tree = MerkleTree()
    assert (tree.size, tree.root()) == (0, EMPTY_ROOT)
    assert [tree.append(h) for h in unhex(LEAF_HASHES[:3])] == [0, 1, 2]
    tree.extend(unhex(LEAF_HASHES[3:]))
    assert tree.size == 8
    assert tree.root() == KNOWN_TREE.root() == bytes.fromhex(ROOTS[8])


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t.append(b"\x00" * (HASH_BYTES - 1)),
        lambda t: t.root(-1),
        lambda t: t.root(9),
        lambda t: t.inclusion_proof(-1),
        lambda t: t.inclusion_proof(8),
        lambda t: t.inclusion_proof(3, 3),
        lambda t: t.inclusion_proof(0, 0),
        lambda t: t.inclusion_proof(0, 9),
        lambda t: t.consistency_proof(-1),
        lambda t: t.consistency_proof(9),
        lambda t: t.consistency_proof(4, 3),
        lambda t: t.consistency_proof(0, 9),
    ],
)
def test_sizes_and_indexes_out_of_range_raise_value_error(
    call: Callable[[MerkleTree], object],
) -> None:
    tree = MerkleTree(unhex(LEAF_HASHES))  # 8 leaves
    with pytest.raises(ValueError, match=r"out of range|bytes long") as raised:
        call(tree)
    assert not isinstance(raised.value, ProofError)


def test_roots_and_proofs_cost_polylog_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Complete subtrees are stored, not recomputed: O(log n) hashes for a root, O(log² n)
    for a proof, whatever the size asked for."""
    n = 2**13 - 1  # all bits set: the most incomplete subtrees there can be
    tree = MerkleTree(make_leaves(b"", n))
    calls = 0

    def counting(left: bytes, right: bytes) -> bytes:
        nonlocal calls
        calls += 1
        return node_hash(left, right)

    monkeypatch.setattr(merkle, "node_hash", counting)
    for build in (
        tree.root,
        lambda: tree.root(n - 2),
        lambda: tree.inclusion_proof(n - 2),
        lambda: tree.inclusion_proof(1234, n - 4),
        lambda: tree.consistency_proof(n - 2),
        lambda: tree.consistency_proof(1234, n - 4),
    ):
        calls = 0
        build()
        assert calls <= 13**2
    calls = 0
    tree.root()
    assert calls == 12  # one per incomplete subtree along the right edge: counted


# The verifiers' edge cases and messages.


def test_a_single_leaf_is_its_own_root() -> None:
    leaf = bytes.fromhex(LEAF_HASHES[3])
    verify_inclusion(0, 1, leaf, [], leaf)
    with pytest.raises(ProofError, match="another root"):
        verify_inclusion(0, 1, leaf, [], flipped(leaf))


def test_equal_sizes_need_an_empty_proof_and_equal_roots() -> None:
    root = bytes.fromhex(ROOTS[5])
    assert KNOWN_TREE.consistency_proof(5, 5) == []
    verify_consistency(5, 5, [], root, root)
    with pytest.raises(ProofError, match="must be empty"):
        verify_consistency(5, 5, [root], root, root)
    with pytest.raises(ProofError, match="roots differ"):
        verify_consistency(5, 5, [], root, bytes.fromhex(ROOTS[6]))


def test_the_empty_tree_is_consistent_with_every_tree() -> None:
    """Size 0 (left open by the RFC): an empty proof, root1 must be the empty tree's root."""
    assert KNOWN_TREE.consistency_proof(0) == KNOWN_TREE.consistency_proof(0, 0) == []
    for size2 in range(9):
        verify_consistency(0, size2, [], EMPTY_ROOT, bytes.fromhex(ROOTS[size2]))
    with pytest.raises(ProofError, match="empty tree"):
        verify_consistency(0, 3, [], bytes.fromhex(ROOTS[1]), bytes.fromhex(ROOTS[3]))
    with pytest.raises(ProofError, match="must be empty"):
        verify_consistency(0, 1, [EMPTY_ROOT], EMPTY_ROOT, bytes.fromhex(ROOTS[1]))
    with pytest.raises(ProofError, match="roots differ"):
        verify_consistency(0, 0, [], EMPTY_ROOT, bytes.fromhex(ROOTS[1]))


@pytest.mark.parametrize(
    ("check", "message"),
    [
        (lambda: verify_inclusion(0, 8, b"leaf", [], EMPTY_ROOT), "leaf hash is 4 bytes"),
        (lambda: verify_inclusion(0, 1, EMPTY_ROOT, [], b""), "root is 0 bytes"),
        (lambda: verify_inclusion(0, 2, EMPTY_ROOT, [b"x" * 33], EMPTY_ROOT), "#0 is 33"),
        (lambda: verify_inclusion(8, 8, EMPTY_ROOT, [], EMPTY_ROOT), "index 8 is out of range"),
        (lambda: verify_inclusion(-1, 8, EMPTY_ROOT, [], EMPTY_ROOT), "out of range"),
        (lambda: verify_inclusion(0, 0, EMPTY_ROOT, [], EMPTY_ROOT), "out of range"),
        (lambda: verify_inclusion(0, 8, EMPTY_ROOT, [], EMPTY_ROOT), "fewer hashes"),
        (lambda: verify_inclusion(0, 1, EMPTY_ROOT, [EMPTY_ROOT], EMPTY_ROOT), "more hashes"),
        (lambda: verify_consistency(0, 1, [], b"r", EMPTY_ROOT), "first root is 1 bytes"),
        (lambda: verify_consistency(0, 1, [], EMPTY_ROOT, b"r"), "second root is 1 bytes"),
        (lambda: verify_consistency(3, 2, [], EMPTY_ROOT, EMPTY_ROOT), "out of range"),
        (lambda: verify_consistency(-1, 2, [], EMPTY_ROOT, EMPTY_ROOT), "out of range"),
        (lambda: verify_consistency(3, 5, [], EMPTY_ROOT, EMPTY_ROOT), "5 is empty"),
        (lambda: verify_consistency(3, 4, [EMPTY_ROOT], EMPTY_ROOT, EMPTY_ROOT), "fewer"),
        (lambda: verify_consistency(2, 3, [EMPTY_ROOT] * 2, EMPTY_ROOT, EMPTY_ROOT), "more"),
        (lambda: verify_consistency(2, 3, [EMPTY_ROOT], EMPTY_ROOT, EMPTY_ROOT), "second root"),
        (lambda: verify_consistency(3, 4, [EMPTY_ROOT] * 3, EMPTY_ROOT, EMPTY_ROOT), "first"),
    ],
)
def test_proof_errors_say_why(check: Callable[[], None], message: str) -> None:
    with pytest.raises(ProofError, match=message) as raised:
        check()
    assert isinstance(raised.value, ValueError)
    assert str(raised.value).endswith(".") and "\n" not in str(raised.value)


# Properties, against the naive reference.


@REFERENCE
@given(leaves=leaf_lists())
def test_roots_at_every_size_match_the_reference(leaves: list[bytes]) -> None:
    tree, reference = MerkleTree(), Reference(leaves)
    for size, leaf in enumerate(leaves, start=1):
        assert tree.append(leaf) == size - 1
        assert tree.root() == reference.mth(0, size)
    assert [tree.root(size) for size in range(len(leaves) + 1)] == [
        reference.mth(0, size) for size in range(len(leaves) + 1)
    ]
    assert root_of(leaves) == reference.mth(0, len(leaves))


@REFERENCE
@given(leaves=leaf_lists(), data=st.data())
def test_inclusion_proofs_match_the_reference_and_verify(
    leaves: list[bytes], data: st.DataObject
) -> None:
    tree, reference = MerkleTree(leaves), Reference(leaves)
    size = data.draw(st.integers(1, len(leaves)), label="size")
    root = tree.root(size)
    for index in range(size):
        proof = tree.inclusion_proof(index, size)
        assert proof == reference.path(index, 0, size)
        verify_inclusion(index, size, leaves[index], proof, root)


@REFERENCE
@given(leaves=leaf_lists(), data=st.data())
def test_consistency_proofs_match_the_reference_and_verify(
    leaves: list[bytes], data: st.DataObject
) -> None:
    tree, reference = MerkleTree(leaves), Reference(leaves)
    size2 = data.draw(st.integers(1, len(leaves)), label="size2")
    root2 = tree.root(size2)
    for size1 in range(size2 + 1):
        proof = tree.consistency_proof(size1, size2)
        assert proof == (reference.proof(size1, size2) if 0 < size1 < size2 else [])
        verify_consistency(size1, size2, proof, tree.root(size1), root2)


InclusionArgs = tuple[int, int, bytes, list[bytes], bytes]
ConsistencyArgs = tuple[int, int, list[bytes], bytes, bytes]


def flipped_each(proof: list[bytes], position: int, mask: int) -> dict[str, list[bytes]]:
    return {
        f"flipped proof[{i}]": [*proof[:i], flipped(proof[i], position, mask), *proof[i + 1 :]]
        for i in range(len(proof))
    }


@PROBES
@given(
    leaves=leaf_lists(),
    data=st.data(),
    position=st.integers(0, HASH_BYTES - 1),
    mask=st.integers(1, 255),
)
def test_every_broken_inclusion_proof_is_rejected(
    leaves: list[bytes], data: st.DataObject, position: int, mask: int
) -> None:
    tree, n = MerkleTree(leaves), len(leaves)
    size = data.draw(st.integers(1, n), label="size")
    index = data.draw(st.integers(0, size - 1), label="index")
    other = data.draw(st.integers(0, n), label="other index")
    leaf, proof, root = leaves[index], tree.inclusion_proof(index, size), tree.root(size)
    verify_inclusion(index, size, leaf, proof, root)
    probes: dict[str, InclusionArgs] = {
        name: (index, size, leaf, broken, root)
        for name, broken in flipped_each(proof, position, mask).items()
    }
    probes |= {
        "index - 1": (index - 1, size, leaf, proof, root),
        "index + 1": (index + 1, size, leaf, proof, root),
        "index ^ 2": (index ^ 2, size, leaf, proof, root),
        "size * 2": (index, size * 2, leaf, proof, root),
        "size // 2": (index, size // 2, leaf, proof, root),
        "extended": (index, size, leaf, [*proof, root], root),
        "prefixed": (index, size, leaf, [leaf, *proof], root),
        "wrong leaf": (index, size, flipped(leaf, position, mask), proof, root),
        "wrong root": (index, size, leaf, proof, flipped(root, position, mask)),
        "empty root": (index, size, leaf, proof, EMPTY_ROOT),
    }
    if other != index:
        probes["other index"] = (other, size, leaf, proof, root)
    if proof:
        probes["truncated"] = (index, size, leaf, proof[:-1], root)
        probes["headless"] = (index, size, leaf, proof[1:], root)
    # A size off by one can give a proof of the same shape: it is told by the root (as signed
    # in a checkpoint of that size), so these are checked against that size's true root.
    for wrong in (size - 1, size + 1):
        if index < wrong <= n:
            probes[f"size {wrong}"] = (index, wrong, leaf, proof, tree.root(wrong))
    assert [name for name, args in probes.items() if not rejects(verify_inclusion, *args)] == []


@PROBES
@given(
    leaves=leaf_lists(2),
    data=st.data(),
    position=st.integers(0, HASH_BYTES - 1),
    mask=st.integers(1, 255),
)
def test_every_broken_consistency_proof_is_rejected(
    leaves: list[bytes], data: st.DataObject, position: int, mask: int
) -> None:
    tree, n = MerkleTree(leaves), len(leaves)
    size2 = data.draw(st.integers(2, n), label="size2")
    size1 = data.draw(st.integers(1, size2 - 1), label="size1")
    proof = tree.consistency_proof(size1, size2)
    root1, root2 = tree.root(size1), tree.root(size2)
    verify_consistency(size1, size2, proof, root1, root2)
    probes: dict[str, ConsistencyArgs] = {
        name: (size1, size2, broken, root1, root2)
        for name, broken in flipped_each(proof, position, mask).items()
    }
    probes |= {
        "size1 ^ 2": (size1 ^ 2, size2, proof, root1, root2),
        "size2 * 2": (size1, size2 * 2, proof, root1, root2),
        "size2 // 2": (size1, size2 // 2, proof, root1, root2),
        "empty": (size1, size2, [], root1, root2),
        "truncated": (size1, size2, proof[:-1], root1, root2),
        "headless": (size1, size2, proof[1:], root1, root2),
        "extended": (size1, size2, [*proof, root2], root1, root2),
        "prefixed with root1": (size1, size2, [root1, *proof], root1, root2),
        "repeated proof[0]": (size1, size2, [proof[0], *proof], root1, root2),
        "wrong root1": (size1, size2, proof, flipped(root1, position, mask), root2),
        "wrong root2": (size1, size2, proof, root1, flipped(root2, position, mask)),
        "swapped roots": (size1, size2, proof, root2, root1),
    }
    # Sizes off by one, against their true roots (see the inclusion test).
    for wrong1, wrong2 in ((size1 - 1, size2), (size1 + 1, size2), (size1, size2 - 1)):
        roots = tree.root(wrong1), tree.root(wrong2)
        probes[f"sizes {wrong1}, {wrong2}"] = (wrong1, wrong2, proof, *roots)
    if size2 < n:
        probes[f"size2 {size2 + 1}"] = (size1, size2 + 1, proof, root1, tree.root(size2 + 1))
    accepted = [name for name, args in probes.items() if not rejects(verify_consistency, *args)]
    assert accepted == []


@PROBES
@given(leaves=leaf_lists(), data=st.data())
def test_a_changed_leaf_fails_the_old_proofs(leaves: list[bytes], data: st.DataObject) -> None:
    """A log that rewrote a leaf: a client holding an old root (of a size before or after the
    leaf) is not fooled by the old consistency proofs to the new root, nor by old inclusion
    proofs."""
    tree, n = MerkleTree(leaves), len(leaves)
    changed = data.draw(st.integers(0, n - 1), label="changed leaf")
    size2 = data.draw(st.integers(changed + 1, n), label="size2")
    forged = MerkleTree([*leaves[:changed], leaf_hash(b"forged"), *leaves[changed + 1 :]])
    new_root2 = forged.root(size2)
    assert new_root2 != tree.root(size2)
    for size1 in range(1, size2 + 1):
        old_proof = tree.consistency_proof(size1, size2)
        assert rejects(verify_consistency, size1, size2, old_proof, tree.root(size1), new_root2)
    for index in range(size2):
        old_proof = tree.inclusion_proof(index, size2)
        assert rejects(verify_inclusion, index, size2, leaves[index], old_proof, new_root2)
