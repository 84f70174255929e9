#!/usr/bin/env python3
"""A CPU model of cluster_ring.cu's synchronisation (no GPU was available to run the kernel).

Each block of a cluster is modelled as agents (the computing threads as one or more warps, the
issuing thread or the producer warp) that run the kernel's steps in the kernel's order, with the
index arithmetic copied from the kernel; a random scheduler interleaves them and lands the bulk
copies at random later times. Modelled hardware semantics:
  - mbarrier: a phase counter; a phase completes when its pending arrivals and transaction bytes
    are both zero; try_wait.parity(P) succeeds iff (phase & 1) != P (the phase of parity P is the
    one just completed);
  - barrier.cluster: every agent of every block of the cluster arrives, then waits for the
    generation to turn;
  - a named block barrier among the computing warps.
Checked: every wait that passes finds exactly the chunk it expects in its stage, fully landed; a
copy never lands in a stage whose previous chunk is still being read; every DSMEM read of a slot
finds the pair of the row it expects; every element of every row is written exactly once, with the
row's own statistics; no deadlock (the run ends with every agent done).
Usage: python3 model.py [trials]
"""
import random
import sys


class Mbar:
    def __init__(self, count):
        self.count = count
        self.pending = count
        self.tx = 0
        self.phase = 0

    def _maybe_complete(self):
        if self.pending == 0 and self.tx == 0:
            self.phase += 1
            self.pending = self.count

    def arrive(self, tx=0):
        self.tx += tx
        self.pending -= 1
        assert self.pending >= 0
        self._maybe_complete()

    def complete_tx(self, b):
        self.tx -= b
        self._maybe_complete()

    def try_wait(self, parity):
        return (self.phase & 1) != parity


def simulate(rows, cols, K, C, S, threads_warps, producer, seed):
    rnd = random.Random(seed)
    part = (cols + 4 * K - 1) // (4 * K) * 4
    nc_max = (part + C - 1) // C
    if nc_max > S - 1:
        return "skip"
    max_clusters = rnd.choice([1, 2, 3, 16])
    clusters = min(max_clusters, rows)
    W = threads_warps  # computing warps per block
    written = {}  # (row, col) -> count
    copies = []  # in flight: [block, stage, g, bytes]

    class Block:
        pass

    cl_state = {}
    for c in range(clusters):
        cl_state[c] = {"gen": 0, "arrived": 0, "agents": 0}

    blocks = []
    for b in range(clusters * K):
        B = Block()
        B.cid, B.rank = b // K, b % K
        B.my_rows = (rows - 1 - B.cid) // clusters + 1 if B.cid < rows else 0
        B.begin = min(cols, B.rank * part)
        B.len = min(cols, B.begin + part) - B.begin
        B.nc = (B.len + C - 1) // C
        B.total = B.my_rows * B.nc
        B.full = [Mbar(1) for _ in range(S)]
        B.empty = [Mbar(W) for _ in range(S)]
        B.stage = [None] * S  # (g, landed)
        B.readers = [0] * S  # warps still to read the stage's chunk
        B.slot = [None, None]
        B.warp_stats = [None] * W
        B.nb = {"gen": 0, "arrived": 0}  # the named barrier of the computing warps
        blocks.append(B)

    def issue(B, g):
        s = g % S
        i, k = divmod(g, B.nc)
        row = B.cid + i * clusters
        off = k * C
        nbytes = min(C, B.len - off) * 4
        assert nbytes > 0 and nbytes % 16 == 0
        # the stage must be free: its previous chunk read by every warp
        assert B.readers[s] == 0, "copy issued into a stage still being read"
        B.full[s].arrive(nbytes)
        B.stage[s] = (g, False)
        B.readers[s] = W
        copies.append([B, s, g, nbytes])

    def cluster_sync(B):
        st = cl_state[B.cid]
        gen = st["gen"]
        st["arrived"] += 1
        if st["arrived"] == st["agents"]:
            st["arrived"] = 0
            st["gen"] += 1
        while st["gen"] == gen:
            yield

    def named_sync(B):
        nb = B.nb
        gen = nb["gen"]
        nb["arrived"] += 1
        if nb["arrived"] == W:
            nb["arrived"] = 0
            nb["gen"] += 1
        while nb["gen"] == gen:
            yield

    def stat_of(row):
        return ("row", row)

    def consumer(B, w):
        # warp w; warp 0 lane 0 is tid 0 (the issuing thread without a producer)
        if not producer and w == 0:
            for g in range(min(S, B.total)):
                issue(B, g)
        # (the kernel's __syncthreads after mbarrier init comes before this; initial issues happen
        # after it, and other warps only wait on the barriers, so this order is the kernel's)
        for i in range(B.my_rows):
            row = B.cid + i * clusters
            for k in range(B.nc):
                g = i * B.nc + k
                s = g % S
                while not B.full[s].try_wait((g // S) & 1):
                    yield
                assert B.stage[s] == (g, True), f"wait passed for chunk {g} but stage holds {B.stage[s]}"
                yield
            B.warp_stats[w] = ("part", row, B.rank)
            yield from named_sync(B)
            if w == 0:
                for x in range(W):
                    assert B.warp_stats[x] == ("part", row, B.rank)
                B.slot[i & 1] = stat_of(row)
            yield from cluster_sync(B)
            # DSMEM reads of every block's slot
            for peer in blocks[B.cid * K:(B.cid + 1) * K]:
                yield
                assert peer.slot[i & 1] == stat_of(row), f"slot of rank {peer.rank} holds {peer.slot[i & 1]}, row {row}"
            for k in range(B.nc):
                g = i * B.nc + k
                s = g % S
                assert B.stage[s] == (g, True)
                off = k * C
                n = min(C, B.len - off)
                # this warp's share of the chunk: model the whole chunk written by warp 0's turn
                if w == 0:
                    for j in range(B.begin + off, B.begin + off + n):
                        written[(row, j)] = written.get((row, j), 0) + 1
                yield
                B.readers[s] -= 1
                if producer:
                    B.empty[s].arrive()
                else:
                    yield from named_sync(B)
                    if w == 0 and g + S < B.total:
                        issue(B, g + S)
        yield from cluster_sync(B)

    def producer_agent(B):
        for g in range(min(S, B.total)):
            issue(B, g)
        for i in range(B.my_rows):
            yield from cluster_sync(B)
            for k in range(B.nc):
                g = i * B.nc + k
                if g + S < B.total:
                    while not B.empty[g % S].try_wait((g // S) & 1):
                        yield
                    issue(B, g + S)
        yield from cluster_sync(B)

    agents = []
    for B in blocks:
        for w in range(W):
            agents.append(consumer(B, w))
        if producer:
            agents.append(producer_agent(B))
        cl_state[B.cid]["agents"] += W + (1 if producer else 0)

    live = list(agents)
    steps = 0
    while live or copies:
        steps += 1
        if steps > 2_000_000:
            return "DEADLOCK (step limit)"
        # land a copy now and then
        if copies and (not live or rnd.random() < 0.3):
            idx = rnd.randrange(len(copies))
            B, s, g, nbytes = copies.pop(idx)
            assert B.stage[s] == (g, False)
            B.stage[s] = (g, True)
            B.full[s].complete_tx(nbytes)
            continue
        if not live:
            break
        a = rnd.choice(live)
        try:
            next(a)
        except StopIteration:
            live.remove(a)
    # every element written exactly once
    for r in range(rows):
        for j in range(cols):
            c = written.get((r, j), 0)
            if c != 1:
                return f"element ({r},{j}) written {c} times"
    return "ok"


def main():
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rnd = random.Random(1)
    configs = [  # (K, C, S, warps, producer): C and cols scaled down by 64 to keep it small
        (8, 128, 6, 1, False), (8, 128, 7, 2, False), (8, 64, 14, 2, False), (8, 128, 6, 2, True),
        (8, 64, 13, 3, True), (16, 128, 6, 2, False), (16, 64, 14, 1, True), (8, 128, 5, 2, False),
    ]
    bad = 0
    ran = 0
    for t in range(trials):
        K, C, S, W, prod = configs[t % len(configs)]
        rows = rnd.choice([1, 2, 3, 5, 17, 33, 40])
        cols = rnd.choice([512, 4096, 4092, 3128, 1540, 516, 2048, 4096 - 32])
        res = simulate(rows, cols, K, C, S, W, prod, seed=t)
        if res == "skip":
            continue
        ran += 1
        if res != "ok":
            bad += 1
            print(f"trial {t}: rows {rows} cols {cols} K {K} C {C} S {S} warps {W} producer {prod}: {res}")
    print(f"{ran} runs, {bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
