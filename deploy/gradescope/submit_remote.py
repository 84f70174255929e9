#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Gradescope without a GPU: sends the student's file to a `judge serve` on a GPU machine, waits for
its verdict and writes the service's Gradescope results.json. run_autograder calls this when a
service is configured; it needs only Python's standard library.

Configuration, from the environment or /autograder/source/judge-service.json (keys in brackets):
  JUDGE_URL [url]          the service, e.g. https://judge.example.edu:8080
  JUDGE_TOKEN [token]      a token of the course's (judge token add gradescope --data DIR); the
                           service ranks by token, so one token for Gradescope is one leaderboard row
  JUDGE_PROBLEM [problem]  the problem this assignment is (default reduction)
  JUDGE_TIMEOUT [timeout]  seconds to wait for the verdict (default 1800)
usage: submit_remote.py SOURCE_FILE RESULTS_JSON"""
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid

CONFIG = os.path.join(os.environ.get("AUTOGRADER", "/autograder"), "source", "judge-service.json")


def settings():
    conf = {}
    if os.path.exists(CONFIG):
        with open(CONFIG) as f:
            conf = json.load(f)
    get = lambda env, key, default=None: os.environ.get(env) or conf.get(key) or default
    return (get("JUDGE_URL", "url", "").rstrip("/"), get("JUDGE_TOKEN", "token", ""),
            get("JUDGE_PROBLEM", "problem", "reduction"), float(get("JUDGE_TIMEOUT", "timeout", 1800)))


class ServiceError(Exception):
    pass


class Busy(ServiceError):
    """Worth waiting out: the token's limit (429), or a service that is restarting or failing."""

    def __init__(self, message, retry_after=5):
        super().__init__(message)
        self.retry_after = retry_after


def call(url, token, method="GET", body=None, content_type=None):
    request = urllib.request.Request(url, data=body, method=method)
    request.add_header("Authorization", "Bearer " + token)
    if content_type:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.read()
    except urllib.error.HTTPError as e:
        try:
            message = json.loads(e.read())["error"]["message"]
        except Exception:  # noqa: BLE001 -- any unreadable answer is reported by its status
            message = e.reason
        text = f"the judge service answered {e.code}: {message}"
        if e.code == 429 or e.code >= 500:
            raise Busy(text, int(e.headers.get("Retry-After") or 5)) from e
        raise ServiceError(text) from e
    except (urllib.error.URLError, OSError) as e:
        raise Busy(f"the judge service at {url} could not be reached ({e})") from e


def patiently(deadline, what, *args, **kwargs):
    """call(), waiting out Busy answers until the deadline (the durable queue keeps what was sent)."""
    while True:
        try:
            return call(*args, **kwargs)
        except Busy as e:
            if time.monotonic() + e.retry_after > deadline:
                raise
            print(f"{what}: {e}; again in {e.retry_after} s", file=sys.stderr)
            time.sleep(min(e.retry_after, 60))


def multipart(fields, file_field, filename, data):
    boundary = uuid.uuid4().hex
    filename = "".join(c for c in filename if c.isprintable() and c not in '"\\') or "kernel.cu"
    parts = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{filename}"\r\n'
                 f'Content-Type: text/plain\r\n\r\n'.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), "multipart/form-data; boundary=" + boundary


def grade(source, results):
    url, token, problem, timeout = settings()
    if not url or not token:
        raise ServiceError("no judge service is configured (JUDGE_URL and JUDGE_TOKEN, or judge-service.json)")
    with open(source, "rb") as f:
        body, content_type = multipart({"problem": problem}, "source", os.path.basename(source), f.read())
    deadline, last = time.monotonic() + timeout, None
    sub = json.loads(patiently(deadline, "submitting", url + "/api/submissions", token, "POST", body, content_type))
    print(f"submitted as #{sub['id']} to {url} (problem {problem})", file=sys.stderr)
    while True:
        state = json.loads(patiently(deadline, "waiting", f"{url}/api/submissions/{sub['id']}", token))
        line = state["status"] + (" " + state["progress"] if state.get("progress") else "")
        if line != last:
            print(line, file=sys.stderr)
            last = line
        if state["status"] == "done":
            break
        if time.monotonic() > deadline:
            raise ServiceError(f"no verdict after {timeout:.0f} s (submission #{sub['id']} is still {state['status']}); "
                               "the course staff can see it in the service")
        time.sleep(2)
    with open(results, "wb") as f:
        f.write(patiently(deadline, "fetching results", f"{url}/api/submissions/{sub['id']}/gradescope", token))
    print(f"verdict {state.get('verdict')}", file=sys.stderr)


def main():
    source, results = sys.argv[1], sys.argv[2]
    try:
        grade(source, results)
    except ServiceError as e:
        with open(results, "w") as f:
            json.dump({"score": 0, "output": f"Your kernel could not be graded: {e}. This is not your kernel's "
                       "fault; the course staff have been told.", "visibility": "visible", "tests": []}, f, indent=2)
        print(e, file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
