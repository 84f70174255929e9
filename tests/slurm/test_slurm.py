#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""deploy/slurm/grade-array.sh, unchanged, on a real single-node Slurm that this test starts (Debian's
slurm-wlm and munge, as root, everything in a temporary folder): the host test double stands in for
the GPU, a GRES "gpu" backed by /dev/null stands in for the device. A task cancelled while it grades
makes the merge fail (exit 5) naming its students; requeued, it grades them and the merge is
complete. Exit 77 (skipped) where Slurm or munge is not installed or the test is not root.
usage: test_slurm.py JUDGE_BINARY SOURCE_DIR"""
import glob
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

JUDGE, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
RECIPE = os.path.join(SRC, "deploy/slurm/grade-array.sh")
TOOLS = ["slurmctld", "slurmd", "munged", "mungekey", "sbatch", "scontrol", "scancel", "sinfo"]


def find(tool):
    return shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/sbin")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """slurmctld + slurmd + munged of this test's own, on free ports, gone when it stops."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="judge-slurm-")
        os.chmod(self.dir, 0o755)  # the judge's sandboxed worker reads what is built under it
        self.procs = []
        d = self.dir
        for sub in ("state", "spool"):
            os.makedirs(os.path.join(d, sub))
        subprocess.run([find("mungekey"), "-c", "-k", f"{d}/munge.key"], check=True)
        sock = f"{d}/munge.sock"
        self.start([find("munged"), "-F", "-f", f"--key-file={d}/munge.key", f"--socket={sock}",
                    f"--pid-file={d}/munged.pid", f"--log-file={d}/munged.log", f"--seed-file={d}/munged.seed"], "munged")
        self.wait(lambda: os.path.exists(sock), "munged's socket")
        host = socket.gethostname().split(".")[0]
        conf = f"""ClusterName=judgetest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={sock},cred_expire=20
CredType=cred/munge
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
GresTypes=gpu
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SchedulerParameters=sched_interval=1
MinJobAge=3600
ReturnToService=2
NodeName={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} Gres=gpu:1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""
        with open(f"{d}/slurm.conf", "w") as f:
            f.write(conf)
        with open(f"{d}/gres.conf", "w") as f:
            f.write("AutoDetect=off\nName=gpu File=/dev/null\n")
        self.env = dict(os.environ, SLURM_CONF=f"{d}/slurm.conf")
        self.start([find("slurmctld"), "-D", "-c", "-f", f"{d}/slurm.conf"], "slurmctld")
        self.start([find("slurmd"), "-D", "-f", f"{d}/slurm.conf"], "slurmd")
        self.wait(lambda: "idle" in self.run("sinfo", "-h", "-o", "%T", check=False).stdout, "an idle node", 60)

    def start(self, cmd, name):
        with open(os.path.join(self.dir, name + ".out"), "w") as log:
            self.procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                               env=getattr(self, "env", os.environ)))

    def run(self, *cmd, check=True):
        return subprocess.run(list(cmd), env=self.env, capture_output=True, text=True, check=check, timeout=120)

    def wait(self, ready, what, seconds=30):
        deadline = time.time() + seconds
        while not ready():
            if time.time() > deadline:
                raise AssertionError(f"no {what} after {seconds} s; logs in {self.dir}")
            time.sleep(0.3)

    def job(self, job_id):
        """JobState and ExitCode of a job or an array task (JOB_TASK)."""
        text = self.run("scontrol", "show", "job", "-o", job_id, check=False).stdout
        state = re.search(r"JobState=(\S+)", text)
        code = re.search(r" ExitCode=(\S+)", text)
        return (state.group(1) if state else "", code.group(1) if code else "")

    def wait_ended(self, job_id, seconds=120):
        ended = ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY")
        self.wait(lambda: self.job(job_id)[0] in ended, f"end of job {job_id}", seconds)
        return self.job(job_id)

    def logs(self, results, task):
        """What a failed task's assertion shows: its shard log, and Slurm's own lines about it."""
        shown = []
        for path in [os.path.join(results, "logs", f"shard-{task}.log"), os.path.join(self.dir, "slurmd.log"),
                     os.path.join(self.dir, "slurmctld.log")]:
            try:
                with open(path, errors="replace") as f:
                    lines = f.read().splitlines()
            except OSError as e:
                lines = [str(e)]
            shown.append(f"--- {path}\n" + "\n".join(lines[-30:]))
        return "\n".join(shown)

    def stop(self):
        for p in reversed(self.procs):
            p.terminate()
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


SLOW_SUM = """// Correct, and a second per call.
#include <time.h>

extern "C" void solve(const float* input, float* output, int N) {
  const timespec second{1, 0};
  nanosleep(&second, nullptr);
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}
"""


def read(path):
    with open(path) as f:
        return f.read()


def read_if_there(path):
    try:
        return read(path)
    except FileNotFoundError:
        return ""


class GradeArray(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = Cluster()
        # A course folder whose path has a space and a quote, as shell strings used to break on.
        cls.course = os.path.join(cls.cluster.dir, "CS 101 (it's)")
        cls.students = os.path.join(cls.course, "students")
        os.makedirs(cls.students)
        for name in ("good_sum.cc", "crash_on_large.cc", "float_accumulate.cc"):
            shutil.copy(os.path.join(SRC, "tests/host_submissions", name), cls.students)
        # Shard 1 grades slow_sum.cc last, and a test cancels it while it does: a second per call
        # makes that about 10 s, a wide window for the cancel to land in.
        with open(os.path.join(cls.students, "slow_sum.cc"), "w") as f:
            f.write(SLOW_SUM)
        cls.host = ["--device", "host", "--testcases", os.path.join(SRC, "tests/e2e/testcases/reduction"), "--root", SRC]
        if os.environ.get("JUDGE_CACHE_DIR"):
            cls.host += ["--cache-dir", os.environ["JUDGE_CACHE_DIR"]]

    @classmethod
    def tearDownClass(cls):
        cls.cluster.stop()

    def recipe(self, results, *options, judge_options=()):
        # One CPU per task: both shards run at once on a two-core machine.
        cmd = ["bash", RECIPE, "--shards", "2", "--judge", JUDGE, "--shard-sbatch", "--cpus-per-task=1", *options,
               self.students, results, "--", *self.host, *judge_options]
        return self.cluster.run(*cmd, check=False)

    def test_a_cancelled_task_fails_the_merge_by_name_and_a_requeue_completes_it(self):
        results = os.path.join(self.course, "results")
        run = self.recipe(results)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        array = re.search(r"array job (\d+)", run.stdout).group(1)
        merge = re.search(r"merge as job (\d+)", run.stdout).group(1)
        # Cancelled while it grades: Slurm keeps a record of a task that started, so it can be requeued.
        # Shard 1 grades float_accumulate.cc, then slow_sum.cc (about 10 s). The cancel waits for the
        # log line of the first: then the task is surely inside slow_sum.cc. Cancelling as soon as
        # Slurm said RUNNING raced the shard on a loaded two-core CI machine (merge complete, CI red
        # three times, with slow_sum.cc at 4 s and then at 10 s).
        task = f"{array}_1"
        shard_log = os.path.join(results, "logs", f"shard-{task}.log")
        self.cluster.wait(lambda: "] float_accumulate.cc" in read_if_there(shard_log),
                          f"float_accumulate.cc graded by task {task}", 120)
        self.cluster.run("scancel", task)
        self.assertEqual(self.cluster.wait_ended(task)[0], "CANCELLED")
        self.assertEqual(self.cluster.wait_ended(f"{array}_0"), ("COMPLETED", "0:0"))
        # afterany: it ran, and said so
        self.assertEqual(self.cluster.wait_ended(merge), ("FAILED", "5:0"), self.cluster.logs(results, task))
        # The judge took SIGTERM as an interrupt: what it had graded is written, the rest is not.
        self.assertIn("interrupted: 1 submission(s) graded", read(shard_log))

        log = read(os.path.join(results, "logs", f"merge-{merge}.log"))
        self.assertIn("NOT GRADED", log)
        batch = json.loads(read(os.path.join(results, "batch.json")))
        self.assertFalse(batch["complete"])
        self.assertEqual([m["name"] for m in batch["not_graded"]], ["slow_sum.cc"])
        self.assertIn("shard 1/2: slow_sum.cc\n", log)
        graded = ["crash_on_large.cc", "float_accumulate.cc", "good_sum.cc"]
        self.assertEqual(sorted(e["name"] for e in batch["entries"]), graded)
        self.assertIn("slow_sum.cc,not graded,,100.00,,,", read(os.path.join(results, "scores.csv")))
        for name in ("leaderboard.md", "report.html", "junit.xml"):
            self.assertIn("not graded", read(os.path.join(results, name)), name)
        shard0 = read(os.path.join(results, "logs", f"shard-{array}_0.log"))
        # Compile jobs = the task's one CPU (--cpus-per-task=1), not the node's two.
        self.assertIn("grading 2 submission(s): 1 parallel compiles", shard0)

        # Requeued, it grades what its shard is missing; the merge the recipe printed is then
        # complete. A requeued job waits out the credential lifetime (cred_expire, 120 s by default,
        # 20 s here): started sooner, slurmd kills it ("Job credential revoked", FAILED 1:0), as it
        # did in CI when this test forced StartTime=now.
        self.cluster.run("scontrol", "requeue", task)
        self.assertEqual(self.cluster.wait_ended(task), ("COMPLETED", "0:0"), self.cluster.logs(results, task))
        attempts = read(os.path.join(results, "logs", f"shard-{task}.log"))
        self.assertIn("CANCELLED AT", attempts)  # the first attempt's lines, kept (--open-mode=append)
        self.assertIn("submission(s) in", attempts)  # and the requeued one's
        again = next(line for line in run.stdout.splitlines() if "merge.sbatch" in line)
        submitted = self.cluster.run("bash", "-c", again.strip())
        merged = re.search(r"Submitted batch job (\d+)", submitted.stdout).group(1)
        self.assertEqual(self.cluster.wait_ended(merged), ("COMPLETED", "0:0"))
        batch = json.loads(read(os.path.join(results, "batch.json")))
        self.assertTrue(batch["complete"])
        self.assertEqual(batch["not_graded"], [])
        verdicts = {e["name"]: e["verdict"] for e in batch["entries"]}
        reports = glob.glob(os.path.join(results, "submissions", "*", "summary.md"))
        self.assertEqual(verdicts, {"crash_on_large.cc": "RE", "float_accumulate.cc": "WA", "good_sum.cc": "AC",
                                    "slow_sum.cc": "AC"}, "".join(read(p)[:2000] for p in reports))

    def test_a_request_no_node_can_meet_is_not_submitted(self):
        before = self.cluster.run("squeue", "-h").stdout
        run = self.recipe(os.path.join(self.course, "never"), "--shard-sbatch", "--cpus-per-task=512")
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("nothing was submitted", run.stderr)
        self.assertNotIn("submitted:", run.stdout)
        self.assertEqual(self.cluster.run("squeue", "-h").stdout, before)

    def test_the_judges_exit_code_is_the_tasks_state(self):
        # A problem that does not exist is bad input (exit 2): the tasks and the merge are FAILED.
        results = os.path.join(self.course, "bad")
        run = self.recipe(results, judge_options=["--problem", "no_such_problem"])
        self.assertEqual(run.returncode, 0, run.stderr)
        array = re.search(r"array job (\d+)", run.stdout).group(1)
        merge = re.search(r"merge as job (\d+)", run.stdout).group(1)
        for task in (f"{array}_0", f"{array}_1"):
            self.assertEqual(self.cluster.wait_ended(task), ("FAILED", "2:0"))
        self.assertIn("bad input", read(os.path.join(results, "logs", f"shard-{array}_0.log")))
        self.assertEqual(self.cluster.wait_ended(merge), ("FAILED", "2:0"))


if __name__ == "__main__":
    missing = [t for t in TOOLS if not find(t)]
    if missing:
        print(f"SKIPPED: {', '.join(missing)} not installed (scripts/install-deps.sh installs slurm-wlm and munge)")
        sys.exit(77)
    if os.geteuid() != 0:
        print("SKIPPED: the test runs slurmd and slurmctld as root (SlurmUser=root); run it as root, as CI does")
        sys.exit(77)
    result = unittest.main(argv=sys.argv[:1], verbosity=2, exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)
