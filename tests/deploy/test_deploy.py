#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The deploy/ files: Gradescope's run_autograder graded end to end (host test double), the
Kubernetes manifests' failure policy agreeing with the judge's exit codes, and every shell script
passing shellcheck. usage: test_deploy.py JUDGE_BINARY SOURCE_DIR"""
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


class Scripts(unittest.TestCase):
    def test_shell_scripts_pass_shellcheck(self):
        if not shutil.which("shellcheck"):
            self.skipTest("shellcheck is not installed (scripts/install-deps.sh installs it)")
        scripts = ["deploy/gradescope/run_autograder", "deploy/gradescope/setup.sh", "deploy/slurm/grade-array.sh",
                   "scripts/install-deps.sh", "scripts/grade-samples.sh", ".ci/run"]
        scripts += ["scripts/bench/" + f for f in os.listdir(os.path.join(SRC, "scripts/bench")) if f.endswith(".sh")]
        run = subprocess.run(["shellcheck", "-x"] + [os.path.join(SRC, s) for s in scripts], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
