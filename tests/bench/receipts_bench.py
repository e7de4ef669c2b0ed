"""What signed proofs cost the server, in process (no database): a command's receipt built and
signed (two HMACs, one Ed25519 signature), a leaf added to the checkpoint log's Merkle tree, and
an inclusion or consistency proof served from a log of `--leaves` leaves; and the tree's memory.

    .venv/bin/python -m tests.bench.receipts_bench [--leaves 100000] [--repeats 2000]

Wall-clock times of this process: not a test, the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import secrets
import timeit
import tracemalloc
from datetime import UTC, datetime

from api.merkle import MerkleTree, leaf_hash
from api.receipts import CommandReceipt, Notary, command_pin, head_pin, pin_key
from api.signing import SigningKeys

GAME_ID = "0b0c4c8e-6f0e-4a57-9d5a-1d5d8c0f4d1e"
LEAF_BYTES = 200  # about a head statement's size


def receipt_cost(repeats: int) -> float:
    notary = Notary(SigningKeys.generate("bench"))
    seed = secrets.token_bytes(32)

    def sign_one() -> None:
        key = pin_key(seed, GAME_ID)
        statement = CommandReceipt(
            game_id=GAME_ID,
            version=42,
            head=head_pin(key, secrets.token_bytes(32)),
            recorded_at=datetime.now(UTC),
            command_id=7,
            seat=1,
            first_seq=40,
            command=command_pin(key, b'{"type":"coyote.bid","number":12}'),
        )
        notary.sign(statement)

    return timeit.timeit(sign_one, number=repeats) / repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=2000)
    args = parser.parse_args()
    print(f"receipt built and signed: {receipt_cost(args.repeats) * 1e6:.0f} us")
    leaves = [leaf_hash(secrets.token_bytes(LEAF_BYTES)) for _ in range(args.leaves)]
    tracemalloc.start()
    tree = MerkleTree()
    seconds = timeit.timeit(lambda: tree.extend(leaves), number=1)
    memory = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(f"log append: {seconds / args.leaves * 1e6:.1f} us a leaf; tree {memory / 2**20:.1f} MiB")
    middle = args.leaves // 2
    for name, proof in (
        ("inclusion", lambda: tree.inclusion_proof(middle)),
        ("consistency", lambda: tree.consistency_proof(middle)),
        ("root at an older size", lambda: tree.root(middle)),
    ):
        cost = timeit.timeit(proof, number=args.repeats) / args.repeats
        print(f"{name} at {args.leaves} leaves: {cost * 1e6:.0f} us")


if __name__ == "__main__":
    main()
