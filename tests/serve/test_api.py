#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`judge serve` end to end over HTTP (host test double): tokens, submit, status with progress and
the report, ownership, the leaderboard, admin rejudge, a restart keeping everything, the limits and
the Gradescope path (deploy/gradescope/run_autograder sending the file to the service).
usage: test_api.py JUDGE_BINARY SOURCE_DIR"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import serve_util as su  # noqa: E402

GOOD = su.host_source("tests/host_submissions/good_sum.cc")
BAD = su.host_source("submissions/host/90_never_writes.cc")


class Api(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = tempfile.mkdtemp(prefix="judge-serve-api-")
        cls.alice = su.add_token(cls.data, "alice", extra=["--alias", "Team Rocket"])
        cls.bob = su.add_token(cls.data, "bob")
        cls.admin = su.add_token(cls.data, "teacher", admin=True)
        cls.service = su.Service(cls.data, ["--max-in-flight", "3", "--max-per-hour", "8",
                                            "--max-source-kb", "4"]).start()
        cls.url = cls.service.url

    @classmethod
    def tearDownClass(cls):
        cls.service.stop()
        shutil.rmtree(cls.data, ignore_errors=True)

    def test_01_a_submission_is_graded_and_only_its_owner_reads_it(self):
        status, answer = su.submit(self.url, self.alice, GOOD, filename="my_kernel.cc")
        self.assertEqual(status, 202, answer)
        sid = answer["id"]
        sub = su.wait_done(self.url, self.alice, [sid])[sid]
        self.assertEqual(sub["verdict"], "AC")
        self.assertEqual(sub["problem"], "reduction")
        self.assertEqual(sub["report"]["verdict"], "AC")
        # The report names the file as uploaded, never where the service kept it.
        self.assertNotIn(self.data, json.dumps(sub["report"]))
        self.assertEqual(su.request(f"{self.url}/api/submissions/{sid}", token=self.bob)[0], 403)
        self.assertEqual(su.request(f"{self.url}/api/submissions/{sid}", token=self.admin)[0], 200)
        self.assertEqual(su.request(f"{self.url}/api/submissions/{sid}")[0], 401)
        status, html = su.request(f"{self.url}/api/submissions/{sid}/report.html", token=self.alice)
        self.assertEqual(status, 200)
        self.assertIn("<html", html.lower())
        status, mine = su.request(f"{self.url}/api/submissions", token=self.alice)
        self.assertEqual(status, 200)
        self.assertIn(sid, [s["id"] for s in (mine["submissions"] if isinstance(mine, dict) else mine)])

    def test_02_a_wrong_kernel_is_wrong_and_not_on_the_leaderboard(self):
        status, answer = su.submit(self.url, self.bob, BAD)
        self.assertEqual(status, 202, answer)
        sub = su.wait_done(self.url, self.bob, [answer["id"]])[answer["id"]]
        self.assertEqual(sub["verdict"], "WA")
        status, board = su.request(f"{self.url}/api/leaderboard/reduction")
        self.assertEqual(status, 200)
        names = json.dumps(board)
        self.assertNotIn("bob", names)
        self.assertNotIn("alice", names)  # shown by alias only

    def test_03_bad_requests_get_json_errors(self):
        cases = [
            (su.submit(self.url, "jt_not_a_token", GOOD), 401, "unauthorized"),
            (su.submit(self.url, self.alice, GOOD, problem="no_such_problem"), 422, "unknown_problem"),
            (su.submit(self.url, self.alice, ""), 422, "empty_source"),
            (su.submit(self.url, self.alice, "x" * 5000), 413, "source_too_large"),
            (su.request(self.url + "/api/submissions", "POST", self.alice, b"not multipart", "text/plain"), 400, None),
            (su.request(self.url + "/api/submissions/999999", token=self.alice), 404, "not_found"),
            (su.request(self.url + "/api/admin/rejudge/1", "POST", self.alice), 403, "forbidden"),
            (su.request(self.url + "/nothing/here"), 404, "not_found"),
        ]
        for (status, answer), want, code in cases:
            self.assertEqual(status, want, answer)
            self.assertIn("error", answer)
            if code:
                self.assertEqual(answer["error"]["code"], code, answer)

    def test_04_problems_are_public_with_their_statements(self):
        status, problems = su.request(self.url + "/api/problems")
        self.assertEqual(status, 200)
        listed = problems["problems"] if isinstance(problems, dict) else problems
        self.assertEqual([p["name"] for p in listed], ["reduction"])
        self.assertIn("solve(", listed[0]["signature"])
        self.assertGreater(len(listed[0]["statement"]), 100)

    def test_05_admin_rejudges_and_a_restart_keeps_everything(self):
        status, answer = su.submit(self.url, self.alice, su.variant(GOOD, "rejudge"))
        sid = answer["id"]
        su.wait_done(self.url, self.alice, [sid])
        status, answer = su.request(f"{self.url}/api/admin/rejudge/{sid}", "POST", self.admin)
        self.assertEqual(status, 200, answer)
        sub = su.wait_done(self.url, self.alice, [sid])[sid]
        self.assertEqual(sub["verdict"], "AC")
        self.assertEqual(sub.get("generation", 1), 1)
        type(self).service.stop()
        type(self).service = su.Service(self.data, ["--max-in-flight", "3", "--max-per-hour", "8"]).start()
        type(self).url = self.service.url
        status, sub = su.request(f"{self.url}/api/submissions/{sid}", token=self.alice)
        self.assertEqual((status, sub["verdict"]), (200, "AC"))

    def test_06_the_limits_per_token_answer_429(self):
        statuses = [su.submit(self.url, self.bob, su.variant(GOOD, f"limit{i}"))[0] for i in range(12)]
        self.assertIn(429, statuses)
        self.assertLessEqual(statuses.count(202), 7)  # bob sent 1 before: at most 8 an hour

    def test_07_gradescope_autograder_grades_through_the_service(self):
        root = tempfile.mkdtemp(prefix="autograder-")
        os.makedirs(os.path.join(root, "submission"))
        with open(os.path.join(root, "submission", "kernel.cc"), "w") as f:
            f.write(su.variant(GOOD, "gradescope"))
        gs = su.add_token(self.data, "gradescope")
        env = dict(os.environ, AUTOGRADER=root, JUDGE_URL=self.url, JUDGE_TOKEN=gs, JUDGE_PROBLEM="reduction",
                   JUDGE_DEVICE="host")
        run = subprocess.run(["bash", os.path.join(su.SRC, "deploy/gradescope/run_autograder")], env=env,
                             capture_output=True, text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(root, "results", "results.json")) as f:
            results = json.load(f)
        shutil.rmtree(root)
        self.assertIn("tests", results)
        self.assertGreater(results["score"], 0, results)

    def test_09_a_course_with_profile_gets_why_is_it_slow_in_every_report(self):
        # --profile: one performance call of each accepted submission under Nsight Compute, its
        # diagnosis in the stored report and in the HTML the web page shows. No ncu here: the report
        # says so, and the verdict stands.
        data = tempfile.mkdtemp(prefix="judge-serve-profile-")
        try:
            token = su.add_token(data, "carol")
            args = su.GRADE_ARGS[:-1] + ["example,perf_small", "--profile"]
            service = su.Service(data, grade_args=args,
                                 env={"PATH": "/usr/bin:/bin", "CUDA_HOME": "/nonexistent"}).start()
            try:
                status, answer = su.submit(service.url, token, GOOD)
                self.assertEqual(status, 202, answer)
                sub = su.wait_done(service.url, token, [answer["id"]])[answer["id"]]
                self.assertEqual(sub["verdict"], "AC")
                profiles = sub["report"]["profiles"]
                self.assertEqual(len(profiles), 1, sub["report"])
                self.assertEqual(profiles[0]["case"], "perf_small")
                status, html = su.request(f"{service.url}/api/submissions/{answer['id']}/report.html", token=token)
                self.assertEqual(status, 200)
                self.assertIn("Why is it slow: perf_small", html)
            finally:
                service.stop()
        finally:
            shutil.rmtree(data, ignore_errors=True)

    def test_08_gradescope_with_no_service_says_so(self):
        root = tempfile.mkdtemp(prefix="autograder-")
        os.makedirs(os.path.join(root, "submission"))
        with open(os.path.join(root, "submission", "kernel.cc"), "w") as f:
            f.write(GOOD)
        env = dict(os.environ, AUTOGRADER=root, JUDGE_URL="http://127.0.0.1:9", JUDGE_TOKEN="jt_x", JUDGE_DEVICE="host",
                   JUDGE_TIMEOUT="3")
        run = subprocess.run(["bash", os.path.join(su.SRC, "deploy/gradescope/run_autograder")], env=env,
                             capture_output=True, text=True, timeout=120)
        with open(os.path.join(root, "results", "results.json")) as f:
            results = json.load(f)
        shutil.rmtree(root)
        self.assertEqual(run.returncode, 0)
        self.assertEqual(results["score"], 0)
        self.assertIn("could not be reached", results["output"])


if __name__ == "__main__":
    sys.argv[1:] = []
    unittest.main(verbosity=2)
