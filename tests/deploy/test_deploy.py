#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The deploy/ files: Gradescope's run_autograder graded end to end (host test double), the
Kubernetes manifests valid against the API's schemas (offline: tests/deploy/k8s) and their failure
policies agreeing with the judge's exit codes, and every shell script passing shellcheck. (Slurm's
recipe runs on a real Slurm in tests/slurm.) usage: test_deploy.py JUDGE_BINARY SOURCE_DIR"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

JUDGE, SRC = sys.argv[1], sys.argv[2]
HOST = ["--testcases", os.path.join(SRC, "tests/e2e/testcases/reduction"), "--root", SRC]


def autograde(submission_files):
    root = tempfile.mkdtemp(prefix="autograder-")
    os.makedirs(os.path.join(root, "submission"))
    for name, text in submission_files.items():
        with open(os.path.join(root, "submission", name), "w") as f:
            f.write(text)
    env = dict(os.environ, AUTOGRADER=root, JUDGE_BIN=JUDGE, JUDGE_DEVICE="host", JUDGE_ARGS=" ".join(HOST))
    run = subprocess.run(["bash", os.path.join(SRC, "deploy/gradescope/run_autograder")], env=env,
                         capture_output=True, text=True, timeout=600)
    with open(os.path.join(root, "results", "results.json")) as f:
        results = json.load(f)
    shutil.rmtree(root)
    return run, results


class Gradescope(unittest.TestCase):
    def test_a_correct_kernel_earns_its_correctness_points(self):
        with open(os.path.join(SRC, "tests/host_submissions/good_sum.cc")) as f:
            run, results = autograde({"kernel.cc": f.read()})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertAlmostEqual(results["score"], 80)  # grading.json: 80 for the cases; no perf_100m here
        self.assertAlmostEqual(results["max_score"], 100)
        self.assertTrue(all(k in results for k in ("tests", "output", "visibility", "execution_time")))

    def test_a_compile_error_is_graded_not_an_autograder_failure(self):
        run, results = autograde({"kernel.cc": "this is not C++"})
        self.assertEqual(run.returncode, 0)
        self.assertEqual(results["score"], 0)
        self.assertIn("compile", results["output"])

    def test_nothing_submitted_says_what_to_upload(self):
        run, results = autograde({"notes.txt": "hello"})
        self.assertEqual(run.returncode, 0)
        self.assertIn("No .cc file was submitted", results["output"])


class MergeByHand(unittest.TestCase):
    """`judge merge` of shards in folders of their own, one of which never ran: its students are
    listed as not graded everywhere, stderr names them, and the exit code is 5."""

    def test_a_shard_whose_folder_is_absent_leaves_its_students_not_graded(self):
        root = tempfile.mkdtemp(prefix="merge-")
        students = os.path.join(root, "students")
        os.makedirs(students)
        for name in ("good_sum.cc", "slow_sum.cc", "float_accumulate.cc"):
            shutil.copy(os.path.join(SRC, "tests/host_submissions", name), students)
        shard0, shard1, out = (os.path.join(root, n) for n in ("shard0", "shard1", "merged"))
        batch = subprocess.run([JUDGE, "batch", students, "--out", shard0, "--shard", "0/2", "--device", "host"] + HOST,
                               capture_output=True, text=True, timeout=600)
        self.assertEqual(batch.returncode, 0, batch.stderr)
        merge = subprocess.run([JUDGE, "merge", shard0, shard1, "--out", out, "--root", SRC], capture_output=True,
                               text=True, timeout=120)
        self.assertEqual(merge.returncode, 5, merge.stderr)
        self.assertIn("shard1 does not exist", merge.stderr)
        self.assertIn("shard 1/2: good_sum.cc", merge.stderr)
        with open(os.path.join(out, "batch.json")) as f:
            merged = json.load(f)
        self.assertEqual([m["name"] for m in merged["not_graded"]], ["good_sum.cc"])
        self.assertEqual(merged["submissions"], 3)
        with open(os.path.join(out, merged["not_graded"][0]["dir"], "results.json")) as f:
            gradescope = json.load(f)
        self.assertNotIn("score", gradescope)  # no 0 the student did not earn
        self.assertIn("NOT GRADED", gradescope["output"])
        if shutil.which("xmllint"):
            xsd = os.path.join(SRC, "tests/schemas/junit.xsd")
            check = subprocess.run(["xmllint", "--noout", "--schema", xsd, os.path.join(out, "junit.xml")],
                                   capture_output=True, text=True)
            self.assertEqual(check.returncode, 0, check.stderr)
        shutil.rmtree(root)


class Kubernetes(unittest.TestCase):
    def test_indexed_job_and_failure_policy_match_the_exit_codes(self):
        try:
            import yaml
        except ImportError:
            self.skipTest("PyYAML is not installed (scripts/install-deps.sh installs python3-yaml)")
        with open(os.path.join(SRC, "deploy/k8s/grade-job.yaml")) as f:
            job = yaml.safe_load(f)
        spec = job["spec"]
        self.assertEqual(spec["completionMode"], "Indexed")
        pod = spec["template"]["spec"]["containers"][0]
        self.assertEqual(pod["resources"]["limits"]["nvidia.com/gpu"], 1)
        self.assertIn("JOB_COMPLETION_INDEX", " ".join(pod["args"]))
        shards = next(e["value"] for e in pod["env"] if e["name"] == "SHARDS")
        self.assertEqual(int(shards), spec["completions"])
        actions = {}
        for rule in spec["podFailurePolicy"]["rules"]:
            for code in rule.get("onExitCodes", {}).get("values", []):
                actions[code] = rule["action"]
        # judge batch: 2 bad input, 3 no GPU, 4 judge fault (README, "Exit codes")
        self.assertEqual(actions, {2: "FailJob", 3: "Ignore", 4: "FailIndex"})
        with open(os.path.join(SRC, "deploy/k8s/merge-job.yaml")) as f:
            merge = yaml.safe_load(f)
        self.assertEqual(merge["spec"]["template"]["spec"]["containers"][0]["command"][:2], ["judge", "merge"])
        # judge merge: 5 some planned submission was not graded, 2 bad input: a retry changes nothing
        fail = [r for r in merge["spec"]["podFailurePolicy"]["rules"] if r["action"] == "FailJob"]
        self.assertEqual(sorted(v for r in fail for v in r["onExitCodes"]["values"]), [2, 5])

    def test_manifests_are_valid_against_the_kubernetes_api_schemas(self):
        try:
            import yaml
        except ImportError:
            self.skipTest("PyYAML is not installed (scripts/install-deps.sh installs python3-yaml)")
        checker = os.path.join(SRC, "tests/deploy/k8s")
        if not shutil.which("node") or not os.path.isdir(os.path.join(checker, "node_modules/kubernetes-models")):
            self.skipTest("node or kubernetes-models is missing (scripts/install-deps.sh: npm ci --prefix tests/deploy/k8s)")
        k8s = os.path.join(SRC, "deploy/k8s")
        docs = []
        for name in sorted(os.listdir(k8s)):
            with open(os.path.join(k8s, name)) as f:
                docs += [{"file": name, "object": d} for d in yaml.safe_load_all(f) if d]
        self.assertEqual(len(docs), 2)

        def validate(objects):
            return subprocess.run(["node", os.path.join(checker, "validate.mjs")], input=json.dumps(objects),
                                  capture_output=True, text=True, timeout=120)

        run = validate(docs)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(run.stdout.count(": valid"), 2, run.stdout)
        # The validator catches what a cluster would refuse: a value outside an enum, a wrong type.
        broken = json.loads(json.dumps(docs[0]))
        broken["object"]["spec"]["completionMode"] = "Indexd"
        broken["object"]["spec"]["parallelism"] = "four"
        run = validate([broken])
        self.assertEqual(run.returncode, 1, run.stdout)
        self.assertIn("completionMode", run.stdout)


class Scripts(unittest.TestCase):
    def test_shell_scripts_pass_shellcheck(self):
        if not shutil.which("shellcheck"):
            self.skipTest("shellcheck is not installed (scripts/install-deps.sh installs it)")
        scripts = ["deploy/gradescope/run_autograder", "deploy/gradescope/setup.sh", "deploy/slurm/grade-array.sh",
                   "deploy/slurm/shard.sbatch", "deploy/slurm/merge.sbatch",
                   "scripts/install-deps.sh", "scripts/grade-samples.sh", ".ci/run"]
        scripts += ["scripts/bench/" + f for f in os.listdir(os.path.join(SRC, "scripts/bench")) if f.endswith(".sh")]
        run = subprocess.run(["shellcheck", "-x"] + [os.path.join(SRC, s) for s in scripts], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
