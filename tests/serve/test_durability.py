#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kill -9 in the middle of a load: 20 clients send 200 submissions (10 each) to `judge serve`
(SQLite queue, host test double); the service is killed with SIGKILL while they send and while it
grades, then restarted on the same --data. Every submission a client got an id for must end done,
with exactly one result, and status polls must be answered in under 50 ms at the 99th percentile
while the backlog is graded. usage: test_durability.py JUDGE_BINARY SOURCE_DIR"""
import http.client
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import serve_util as su  # noqa: E402

CLIENTS, EACH = 20, 10
GOOD = su.host_source("tests/host_submissions/good_sum.cc")
BAD = su.host_source("submissions/host/90_never_writes.cc")
# Four distinct files: a grading is a compile-cache hit after the first of each.
SOURCES = [(GOOD, "AC"), (BAD, "WA"), (su.variant(GOOD, "b"), "AC"), (su.variant(BAD, "b"), "WA")]


def main():
    data = tempfile.mkdtemp(prefix="judge-serve-durability-")
    limits = ["--max-in-flight", str(EACH), "--max-per-hour", "1000", "--lease-seconds", "10"]
    tokens = [su.add_token(data, f"student{i:02d}") for i in range(CLIENTS)]
    service = su.Service(data, limits).start()
    url = {"now": service.url}
    accepted, errors, lock = {}, [], threading.Lock()

    def client(k):
        rng = random.Random(k)
        sent = 0
        while sent < EACH:
            source, expect = SOURCES[(k + sent) % len(SOURCES)]
            try:
                status, answer = su.submit(url["now"], tokens[k], source, timeout=10)
            # The service is down (killed), or was killed while answering (the answer cut short: an
            # HTTPException such as IncompleteRead, not an OSError): try again, as a student's client would.
            except (OSError, http.client.HTTPException):
                time.sleep(0.2)
                continue
            if status == 202:
                with lock:
                    accepted[answer["id"]] = (tokens[k], expect)
                sent += 1
            elif status != 429:
                with lock:
                    errors.append((status, answer))
                return
            time.sleep(rng.uniform(0, 0.05))

    threads = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
    for t in threads:
        t.start()
    # Kill once a third is in, while the clients are still sending and the grader is busy.
    while len(accepted) < CLIENTS * EACH // 3:
        time.sleep(0.01)
    before = len(accepted)
    service.kill9()
    killed_at = time.monotonic()
    time.sleep(0.5)
    service = su.Service(data, limits).start()
    url["now"] = service.url
    print(f"killed with {before} accepted; restarted in {time.monotonic() - killed_at:.1f} s", flush=True)
    for t in threads:
        t.join(timeout=600)
    assert not errors, f"unexpected answers: {errors[:3]}"
    assert len(accepted) == CLIENTS * EACH, len(accepted)

    # Status polls while the backlog is graded.
    latencies = []
    ids = list(accepted)
    done = {}
    deadline = time.monotonic() + 900
    while len(done) < len(ids) and time.monotonic() < deadline:
        for i in ids:
            if i in done:
                continue
            token = accepted[i][0]
            t0 = time.perf_counter()
            status, sub = su.request(f"{service.url}/api/submissions/{i}", token=token)
            latencies.append(time.perf_counter() - t0)
            assert status == 200, (status, sub)
            if sub["status"] == "done":
                done[i] = sub
        time.sleep(0.1)
    service.stop()
    assert len(done) == len(ids), f"{len(ids) - len(done)} accepted submission(s) never finished"
    for i, sub in done.items():
        assert sub["verdict"] == accepted[i][1], (i, sub["verdict"], accepted[i][1])

    # Exactly one result each, as the database has them.
    db = sqlite3.connect(os.path.join(data, "judge.db"))
    counts = dict(db.execute("SELECT submission_id, COUNT(*) FROM results GROUP BY submission_id").fetchall())
    retried = db.execute("SELECT COUNT(*) FROM submissions WHERE attempts > 1").fetchone()[0]
    total = db.execute("SELECT COUNT(*) FROM submissions").fetchone()[0]
    db.close()
    missing = [i for i in ids if counts.get(i, 0) != 1]
    assert not missing, f"submissions without exactly one result: {[(i, counts.get(i, 0)) for i in missing[:10]]}"
    # A request the kill cut off may have been committed without its answer reaching the client:
    # it is graded too, once.
    assert all(n == 1 for n in counts.values()) and len(counts) == total, (len(counts), total)

    latencies.sort()
    p99 = latencies[int(0.99 * (len(latencies) - 1))]
    print(f"{len(ids)} accepted, {total} in the database, {retried} graded again after the kill; "
          f"{len(latencies)} polls while grading: p50 {latencies[len(latencies) // 2] * 1e3:.1f} ms, "
          f"p99 {p99 * 1e3:.1f} ms")
    assert p99 < 0.050, f"p99 of status polls {p99 * 1e3:.1f} ms (limit 50 ms)"
    shutil.rmtree(data, ignore_errors=True)
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
