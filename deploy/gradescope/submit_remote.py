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
        raise ServiceError(f"the judge service answered {e.code}: {message}") from e
    except (urllib.error.URLError, OSError) as e:
        raise ServiceError(f"the judge service at {url} could not be reached ({e})") from e


def multipart(fields, file_field, filename, data):
    boundary = uuid.uuid4().hex
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
    sub = json.loads(call(url + "/api/submissions", token, "POST", body, content_type))
    print(f"submitted as #{sub['id']} to {url} (problem {problem})", file=sys.stderr)
    deadline, last = time.monotonic() + timeout, None
    while True:
        state = json.loads(call(f"{url}/api/submissions/{sub['id']}", token))
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
        f.write(call(f"{url}/api/submissions/{sub['id']}/gradescope", token))
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
