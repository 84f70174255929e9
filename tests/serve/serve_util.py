# SPDX-License-Identifier: MIT
"""What the `judge serve` tests share: a service process on a free localhost port (host test double,
the small reduction testcases), tokens, multipart posts, polls, and a PostgreSQL server of the
test's own (initdb into a temporary folder, Unix socket only). Only 127.0.0.1 is ever contacted."""
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid

JUDGE, SRC = sys.argv[1], sys.argv[2]
SKIP = 77  # ctest's SKIP_RETURN_CODE for these tests
# The reduction's small testcases: a grading takes about half a second on the host double.
GRADE_ARGS = ["--device", "host", "--root", SRC, "--testcases", os.path.join(SRC, "tests/e2e/testcases/reduction"),
              "--problems", "reduction", "--cases", "example"]


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(SKIP)


def host_source(name):
    with open(os.path.join(SRC, name)) as f:
        return f.read()


def variant(source, tag):
    """The same kernel as a different file (so each submission is a grading of its own)."""
    return source + f"\n// variant {tag}\n"


class Service:
    """`judge serve` on a free port of 127.0.0.1, stopped (SIGTERM, else SIGKILL) by stop()."""

    def __init__(self, data, extra=(), env=None, grade_args=None):
        self.data = data
        self.grade_args = GRADE_ARGS if grade_args is None else list(grade_args)
        self.extra = list(extra)
        self.env = dict(os.environ, **(env or {}))
        self.proc = None
        self.url = None
        self.log_path = os.path.join(data, f"service-{uuid.uuid4().hex[:8]}.log") if data else None

    def start(self, timeout=60):
        os.makedirs(self.data, exist_ok=True)
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([JUDGE, "serve", "--host", "127.0.0.1", "--port", "0", "--data", self.data]
                                     + self.grade_args + self.extra, stdout=self.log, stderr=subprocess.STDOUT,
                                     env=self.env, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"judge serve exited {self.proc.returncode}:\n{self.output()}")
            m = re.search(r"serving on (http://[0-9.]+:\d+)", self.output())
            if m:
                self.url = m.group(1)
                return self
            time.sleep(0.05)
        raise RuntimeError("judge serve did not start listening:\n" + self.output())

    def output(self):
        with open(self.log_path) as f:
            return f.read()

    def kill9(self):
        os.killpg(self.proc.pid, signal.SIGKILL)  # the service and the workers it started
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill9()
        if self.proc:
            self.log.close()


def add_token(data, name, admin=False, extra=()):
    run = subprocess.run([JUDGE, "token", "add", name, "--data", data] + (["--admin"] if admin else []) + list(extra),
                         capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise RuntimeError(f"judge token add {name}: exit {run.returncode}: {run.stderr}")
    return run.stdout.strip().splitlines()[-1]


def request(url, method="GET", token=None, body=None, content_type=None, timeout=30):
    """(status, parsed JSON or text) of one HTTP request."""
    req = urllib.request.Request(url, data=body, method=method)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    if content_type:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            status, text, kind = answer.status, answer.read(), answer.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        status, text, kind = e.code, e.read(), e.headers.get("Content-Type", "")
    return status, (json.loads(text) if "json" in kind else text.decode(errors="replace"))


def multipart(fields, files):
    boundary = uuid.uuid4().hex
    out = []
    for name, value in fields.items():
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, (filename, data) in files.items():
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                   f"Content-Type: text/plain\r\n\r\n".encode() + data.encode() + b"\r\n")
    out.append(f"--{boundary}--\r\n".encode())
    return b"".join(out), "multipart/form-data; boundary=" + boundary


def submit(url, token, source, problem="reduction", filename="kernel.cc", timeout=30):
    body, kind = multipart({"problem": problem}, {"source": (filename, source)})
    return request(url + "/api/submissions", "POST", token, body, kind, timeout=timeout)


def wait_done(url, token, ids, timeout=600):
    """Polls until every submission is done; {id: submission JSON}."""
    pending, done = set(ids), {}
    deadline = time.monotonic() + timeout
    while pending and time.monotonic() < deadline:
        for i in list(pending):
            status, sub = request(f"{url}/api/submissions/{i}", token=token)
            if status == 200 and sub["status"] == "done":
                done[i] = sub
                pending.discard(i)
        time.sleep(0.2)
    if pending:
        raise AssertionError(f"{len(pending)} submission(s) not done after {timeout} s: {sorted(pending)[:10]}")
    return done


class Postgres:
    """A PostgreSQL server of the test's own on a Unix socket in a temporary folder, run as the
    `postgres` user when the test runs as root (PostgreSQL refuses root)."""

    def __init__(self):
        bins = sorted((d for d in os.listdir("/usr/lib/postgresql") if os.path.exists(
            f"/usr/lib/postgresql/{d}/bin/initdb")), key=int) if os.path.isdir("/usr/lib/postgresql") else []
        if not bins:
            skip("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): install the Debian package postgresql")
        self.bin = f"/usr/lib/postgresql/{bins[-1]}/bin"
        self.dir = tempfile.mkdtemp(prefix="judge-pg-")
        self.port = 5432 + (os.getpid() % 1000) + 1000
        self.user = None
        if os.geteuid() == 0:
            self.user = pwd.getpwnam("postgres")
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        self.conninfo = f"host={self.dir} port={self.port} user=judge dbname=judge"

    def _as_owner(self):
        if self.user:
            uid, gid = self.user.pw_uid, self.user.pw_gid
            return lambda: (os.setgid(gid), os.setuid(uid))
        return None

    def start(self):
        data = os.path.join(self.dir, "data")
        run = lambda args: subprocess.run(args, preexec_fn=self._as_owner(), capture_output=True, text=True,
                                          timeout=120, cwd=self.dir)
        r = run([f"{self.bin}/initdb", "-D", data, "-A", "trust", "-U", "judge", "--no-sync"])
        if r.returncode:
            raise RuntimeError("initdb failed: " + r.stderr)
        self.server = subprocess.Popen([f"{self.bin}/postgres", "-D", data, "-k", self.dir, "-p", str(self.port),
                                        "-c", "listen_addresses=", "-c", "fsync=off"], preexec_fn=self._as_owner(),
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.dir)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            r = run([f"{self.bin}/createdb", "-h", self.dir, "-p", str(self.port), "-U", "judge", "judge"])
            if r.returncode == 0:
                return self
            time.sleep(0.2)
        raise RuntimeError("PostgreSQL did not start: " + r.stderr)

    def query(self, sql):
        r = subprocess.run([f"{self.bin}/psql", "-h", self.dir, "-p", str(self.port), "-U", "judge", "-d", "judge",
                            "-At", "-c", sql], preexec_fn=self._as_owner(), capture_output=True, text=True,
                           timeout=60, cwd=self.dir)
        if r.returncode:
            raise RuntimeError("psql: " + r.stderr)
        return [line.split("|") for line in r.stdout.splitlines() if line]

    def stop(self):
        if getattr(self, "server", None):
            self.server.send_signal(signal.SIGQUIT)
            self.server.wait(timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)
