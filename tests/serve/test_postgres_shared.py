#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two `judge serve` processes, as two GPU hosts, on one real PostgreSQL server the test starts:
submissions sent to either are graded by both, never twice; when one host is killed with SIGKILL in
the middle of grading, the other takes its jobs once their lease runs out, and every submission
still ends with exactly one result. usage: test_postgres_shared.py JUDGE_BINARY SOURCE_DIR"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import serve_util as su  # noqa: E402

GOOD = su.host_source("tests/host_submissions/good_sum.cc")


def main():
    pg = su.Postgres().start()
    root = tempfile.mkdtemp(prefix="judge-serve-pg-")
    try:
        db = ["--database", pg.conninfo]
        extra = db + ["--max-in-flight", "100", "--max-per-hour", "1000", "--lease-seconds", "3"]
        token = su.add_token(os.path.join(root, "a"), "student", extra=db)
        admin = su.add_token(os.path.join(root, "a"), "teacher", admin=True, extra=db)
        a = su.Service(os.path.join(root, "a"), extra).start()
        b = su.Service(os.path.join(root, "b"), extra).start()

        # 1. Both hosts grade from one queue, each submission once.
        ids = []
        for i in range(30):
            status, answer = su.submit((a if i % 2 else b).url, token, su.variant(GOOD, i % 3))
            assert status == 202, (status, answer)
            ids.append(answer["id"])
        done = su.wait_done(a.url, token, ids)
        assert all(s["verdict"] == "AC" for s in done.values()), [s["verdict"] for s in done.values()]
        workers = {w for (w,) in pg.query("SELECT DISTINCT worker FROM results")}
        assert len(workers) == 2, f"one host did all the work: {workers}"

        # 2. Host A dies in the middle of grading: B finishes A's jobs after their lease.
        more = []
        for i in range(20):
            status, answer = su.submit(a.url, token, su.variant(GOOD, "x" + str(i % 4)))
            assert status == 202, (status, answer)
            more.append(answer["id"])
        with open(os.path.join(root, "a", "worker-id")) as f:
            name_a = f.read().strip()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            held = pg.query("SELECT COUNT(*) FROM submissions WHERE status IN ('compiling', 'running') "
                            f"AND worker = '{name_a}'")
            if int(held[0][0]) > 0:
                break
            time.sleep(0.02)
        assert int(held[0][0]) > 0, "host A never held a job to be killed with"
        a.kill9()
        done = su.wait_done(b.url, admin, more, timeout=300)
        assert all(s["verdict"] == "AC" for s in done.values())
        b.stop()

        counts = pg.query("SELECT s.id, COUNT(r.submission_id) FROM submissions s "
                          "LEFT JOIN results r ON r.submission_id = s.id GROUP BY s.id")
        wrong = [(i, n) for i, n in counts if n != "1"]
        assert not wrong, f"submissions without exactly one result: {wrong[:10]}"
        assert len(counts) == 50, len(counts)
        retried = pg.query("SELECT COUNT(*) FROM submissions WHERE attempts > 1")[0][0]
        assert int(retried) >= 1, "no job of the killed host was graded again"
        taken = pg.query("SELECT COUNT(*) FROM results r JOIN submissions s ON s.id = r.submission_id "
                         f"WHERE s.attempts > 1 AND r.worker <> '{name_a}'")[0][0]
        assert int(taken) >= 1, "the killed host's jobs were not finished by the other host"
        print(f"50 submissions, graded by {sorted(workers)}; {retried} taken over after host A was killed")
        print("1 passed, 0 failed")
    finally:
        pg.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
