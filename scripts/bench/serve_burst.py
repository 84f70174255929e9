#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`judge serve` on a GPU, for docs/results: a burst of samples submitted over HTTP at once (each
held to the verdict its header expects), submissions per minute per GPU, and the time from POST to
verdict of a fast kernel whose compile is cached (its second and later submissions).
usage: serve_burst.py JUDGE_BINARY SOURCE_DIR OUT_DIR [PROBLEM...]   (default: reduction block_sums histogram)"""
import json
import os
import re
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../tests/serve"))
import serve_util as su  # noqa: E402  (reads JUDGE_BINARY and SOURCE_DIR from argv)

OUT = sys.argv[3]
PROBLEMS = sys.argv[4:] or ["reduction", "block_sums", "histogram"]


def samples(problem):
    folder = os.path.join(su.SRC, "submissions" if problem == "reduction" else f"submissions/{problem}")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".cu"):
            text = open(os.path.join(folder, name)).read()
            m = re.search(r"^// expect: (\w+)", text, re.M)
            yield name, text, m.group(1) if m else "AC"


def main():
    os.makedirs(OUT, exist_ok=True)
    data = tempfile.mkdtemp(prefix="judge-serve-burst-")
    admin = su.add_token(data, "bench", admin=True)
    t0 = time.monotonic()
    service = su.Service(data, ["--max-in-flight", "1000", "--max-per-hour", "100000", "--problems",
                                ",".join(PROBLEMS)], grade_args=["--root", su.SRC]).start(timeout=300)
    started = time.monotonic() - t0
    jobs = [(p, n, t, e) for p in PROBLEMS for n, t, e in samples(p)]
    posted, lock = {}, threading.Lock()

    def post(job):
        problem, name, text, expect = job
        t = time.monotonic()
        status, answer = su.submit(service.url, admin, text, problem=problem, filename=name)
        assert status == 202, (status, answer)
        with lock:
            posted[answer["id"]] = (problem, name, expect, t)

    burst_start = time.monotonic()
    threads = [threading.Thread(target=post, args=(j,)) for j in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    finished = {}
    while len(finished) < len(posted):
        for i in posted:
            if i not in finished:
                status, sub = su.request(f"{service.url}/api/submissions/{i}", token=admin)
                if sub["status"] == "done":
                    finished[i] = (sub, time.monotonic())
        time.sleep(0.1)
    burst_s = time.monotonic() - burst_start
    rows, wrong = [], 0
    for i, (problem, name, expect, t) in sorted(posted.items()):
        sub, done_at = finished[i]
        ok = sub["verdict"] == expect
        wrong += not ok
        rows.append(f"| {problem} | {name} | {sub['verdict']} | {expect} | {'ok' if ok else 'WRONG'} | "
                    f"{done_at - t:.1f} s |")
    # A fast kernel again and again: its compile is cached after the burst.
    fast = os.path.join(su.SRC, "submissions/06_warp_unroll.cu")
    latencies = []
    for k in range(3):
        t = time.monotonic()
        status, answer = su.submit(service.url, admin, open(fast).read(), filename="06_warp_unroll.cu")
        su.wait_done(service.url, admin, [answer["id"]])
        latencies.append(time.monotonic() - t)
    service.stop()
    lines = [f"# judge serve on {os.popen('nvidia-smi --query-gpu=name,driver_version --format=csv,noheader').read().strip()}",
             "", f"service listening {started:.1f} s after start (device probe, ceilings, catalog)", "",
             f"burst: {len(jobs)} samples of {', '.join(PROBLEMS)} posted at once, all done in {burst_s:.1f} s: "
             f"{60 * len(jobs) / burst_s:.1f} submissions per minute on 1 GPU; {wrong} verdict(s) not as expected", "",
             "| problem | sample | verdict | expected | | POST to verdict |", "|---|---|---|---|---|---:|", *rows, "",
             "06_warp_unroll.cu again (compile cached), POST to verdict: " +
             ", ".join(f"{x:.2f} s" for x in latencies)]
    text = "\n".join(lines) + "\n"
    open(os.path.join(OUT, "serve-burst.md"), "w").write(text)
    print(text)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
