#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bad requests against `judge serve` (host test double), bounded in count and time, 127.0.0.1 only:
bad methods, huge and partial bodies, broken multipart, bad JSON, path tricks, %00, very long
headers, wrong tokens, random mutations of a good submission. Every answer must be a valid response
or a JSON error {"error": {"code", "message"}} whose status is the code's; the service must stay up
and afterwards still grade a submission.
usage: test_fuzz.py JUDGE_BINARY SOURCE_DIR"""
import json
import os
import random
import shutil
import socket
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
import serve_util as su  # noqa: E402

MAX_CASES = 400
MAX_SECONDS = 120
SEED = int(os.environ.get("JUDGE_FUZZ_SEED", "14"))
# api.cc's table of errors. bad_request also carries what the HTTP layer refused with its own
# status (414 URI too long, 431 headers too large).
CODES = {"unauthorized": {401}, "forbidden": {403}, "not_found": {404}, "unknown_problem": {422},
         "empty_source": {422}, "source_too_large": {413}, "body_too_large": {413}, "malformed_multipart": {400},
         "bad_request": {400, 411, 414, 416, 417, 431}, "rate_limited": {429}, "method_not_allowed": {405},
         "internal": {500}}
GOOD = su.host_source("tests/host_submissions/good_sum.cc")


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body


def complete(data):
    """Whether `data` holds a whole answer with a Content-Length."""
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False


def exchange(port, raw, close_write=False, timeout=15):
    """Sends raw bytes on a fresh connection and reads the answer; None when the service closed the
    connection without one. close_write: the client hangs up its side after sending (the service
    may then drop the connection unanswered: nobody could read it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(raw)
            if close_write:
                s.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the service stopped reading (an oversized body): its answer may still be there
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
                if complete(data):
                    break  # the service may keep a connection it could not parse open a while
        except (ConnectionResetError, socket.timeout):
            pass
    if not data:
        return None
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    assert len(parts) >= 2 and parts[0].startswith("HTTP/1."), f"not an HTTP answer: {data[:200]!r}"
    headers = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    if "content-length" in headers:
        body = body[:int(headers["content-length"])]
    return Answer(int(parts[1]), headers, body)


def http(method, path, headers=(), body=b"", version="HTTP/1.1"):
    lines = [f"{method} {path} {version}", "Host: 127.0.0.1", "Connection: close"] + list(headers)
    if (body or method in ("POST", "PUT", "PATCH")) and not any(h.lower().startswith(("content-length", "transfer-encoding")) for h in headers):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1", errors="replace") + body


def check(name, answer, allowed, codes=None):
    """The answer is one of `allowed` statuses; an error is the API's JSON with a code of its status."""
    assert answer is not None, f"{name}: the service closed the connection without an answer"
    assert answer.status in allowed, f"{name}: status {answer.status} not in {sorted(allowed)}: {answer.body[:300]!r}"
    assert b"root:x:0:0" not in answer.body, f"{name}: a file of the system was served"
    if answer.status < 400:
        return
    assert answer.headers.get("content-type", "").startswith("application/json"), \
        f"{name}: error {answer.status} is not JSON: {answer.headers}"
    error = json.loads(answer.body)["error"]
    assert isinstance(error["message"], str) and error["message"], f"{name}: empty message"
    assert error["code"] in CODES, f"{name}: unknown code {error['code']}"
    assert answer.status in CODES[error["code"]], f"{name}: code {error['code']} with status {answer.status}"
    if codes:
        assert error["code"] in codes, f"{name}: code {error['code']}, expected one of {codes}"
    if error["code"] == "rate_limited":
        assert int(answer.headers["retry-after"]) > 0, f"{name}: 429 without Retry-After"


def good_multipart(token, problem="reduction", source=GOOD):
    body, kind = su.multipart({"problem": problem}, {"source": ("k.cc", source)})
    return [f"Authorization: Bearer {token}", f"Content-Type: {kind}"], body


def fixed_cases(token):
    """(name, raw request, allowed statuses, allowed codes or None)."""
    big = 2 << 20
    cases = []
    for method in ["FOO", "TRACE", "CONNECT", "get", "PROPFIND", "M" * 300]:
        cases.append((f"method {method[:10]}", http(method, "/api/problems"), {400, 405}, None))
    for method in ["PUT", "DELETE", "PATCH", "OPTIONS"]:
        cases.append((f"method {method}", http(method, "/api/submissions", [f"Authorization: Bearer {token}"]),
                      {405}, {"method_not_allowed"}))
    for path in ["/api/submissions/../../etc/passwd", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                 "/api/problems/..%2f..%2f..%2fetc%2fpasswd", "/api/problems/%00", "/api/problems/reduction%00.md",
                 "/api/submissions/1%00", "//etc/passwd", "/api/leaderboard/../../../etc/passwd",
                 "/api/submissions/99999999999999999999", "/api/submissions/0x10", "/static/../../etc/passwd",
                 "/api/problems/reduction/../../../../proc/self/environ", "/%ff%fe", "/api/leaderboard/%c0%ae%c0%ae"]:
        cases.append((f"path {path}", http("GET", path, [f"Authorization: Bearer {token}"]), {400, 404}, None))
    cases.append(("path very long", http("GET", "/api/problems/" + "a" * 20000), {400, 404, 414}, None))
    cases.append(("header very long", http("GET", "/api/health", ["X-Long: " + "b" * 20000]),
                  {200, 400, 431}, None))
    cases.append(("many headers", http("GET", "/api/health", [f"X-{i}: {i}" for i in range(300)]),
                  {200, 400, 431}, None))
    for auth in ["Bearer", "Bearer ", "Bearer wrong", "Basic YWxpY2U6cHc=", "bearer " + token, "Bearer " + token + "x",
                 "Bearer " + "z" * 5000, "Bearer \x01\x02", "Bearer jt_" + "0" * 64]:
        cases.append((f"token {auth[:20]!r}", http("GET", "/api/submissions", [f"Authorization: {auth}"]),
                      {401}, {"unauthorized"}))
    cases.append(("huge declared body", http("POST", "/api/submissions",
                                             [f"Authorization: Bearer {token}", "Content-Type: multipart/form-data; boundary=x",
                                              f"Content-Length: {big * 8}"], b"--x\r\n"), {413}, {"body_too_large"}))
    chunk = b"z" * 65536
    chunked = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(40)) + b"0\r\n\r\n"
    # Refused after 1 MiB is read: the rest stays unread, and TCP may reset before the answer is read.
    cases.append(("huge chunked body (may reset)", http("POST", "/api/submissions",
                                            [f"Authorization: Bearer {token}", "Transfer-Encoding: chunked",
                                             "Content-Type: application/octet-stream"], chunked), {400, 413}, None))
    source_only = GOOD + "//" + "s" * (300 << 10)
    headers, body = good_multipart(token, source=source_only)
    cases.append(("source too large", http("POST", "/api/submissions", headers, body), {413}, {"source_too_large"}))
    headers, body = good_multipart(token)
    cases.append(("partial body (hangs up)", http("POST", "/api/submissions", headers[:1] + [headers[1], f"Content-Length: {len(body)}"],
                                       body[: len(body) // 2]), {400, 408}, None))
    broken = {
        "no boundary": ("multipart/form-data", body),
        "wrong boundary": ("multipart/form-data; boundary=nope", body),
        "no final boundary": (headers[1].split(": ", 1)[1], body[: body.rfind(b"--")]),
        "garbage": ("multipart/form-data; boundary=x", b"\x00\xff garbage \r\n\r\n--x"),
        "no disposition": ("multipart/form-data; boundary=x", b"--x\r\nContent-Type: text/plain\r\n\r\nabc\r\n--x--\r\n"),
        "empty": ("multipart/form-data; boundary=x", b""),
        "boundary only": ("multipart/form-data; boundary=x", b"--x--\r\n"),
    }
    for name, (kind, data) in broken.items():
        cases.append((f"multipart {name}", http("POST", "/api/submissions",
                                                [f"Authorization: Bearer {token}", f"Content-Type: {kind}"], data),
                      {400, 422}, {"malformed_multipart", "bad_request"}))
    for data in [b"{", b'{"problem": "reduction", "source": "x"}', b"null", b"\xff\xfe", b"[" * 10000]:
        cases.append((f"json {data[:12]!r}", http("POST", "/api/submissions",
                                                  [f"Authorization: Bearer {token}", "Content-Type: application/json"],
                                                  data), {400}, {"bad_request"}))
    cases.append(("unknown problem", http("POST", "/api/submissions", *good_multipart(token, problem="../../etc")),
                  {422}, {"unknown_problem"}))
    cases.append(("empty source", http("POST", "/api/submissions", *good_multipart(token, source="")),
                  {422}, {"empty_source"}))
    cases.append(("HTTP/0.9", b"GET /\r\n\r\n", {400, 505}, None))
    cases.append(("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", {400, 405, 505}, None))
    return cases


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        pos = rng.randrange(max(1, len(data)))
        op = rng.random()
        if op < 0.5 and data:
            data[pos] = rng.randrange(256)
        elif op < 0.75:
            del data[pos: pos + rng.randint(1, 40)]
        else:
            data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
    return bytes(data)


def mutated_cases(rng, token, count):
    """A good submission with bytes flipped, cut or inserted: in its body (Content-Length kept
    true) or, one time in five, in its request line and headers. Any answer, but a proper one;
    (name, raw, whether the head was mutated)."""
    headers, body = good_multipart(token)
    head = http("POST", "/api/submissions", headers + [f"Content-Length: {len(body)}"])
    for i in range(count):
        if rng.random() < 0.2:
            yield f"head mutation {i}", mutate(rng, head) + body, True
        else:
            new_body = mutate(rng, body)
            yield f"body mutation {i}", http("POST", "/api/submissions", headers, new_body), False


def main():
    data = tempfile.mkdtemp(prefix="judge-serve-fuzz-")
    service = None
    try:
        token = su.add_token(data, "fuzzer")
        final = su.add_token(data, "after")
        service = su.Service(data).start()
        port = urllib.parse.urlparse(service.url).port
        deadline = time.monotonic() + MAX_SECONDS
        rng = random.Random(SEED)
        cases = fixed_cases(token)
        n = 0
        started = time.monotonic()
        for name, raw, allowed, codes in cases:
            hangs_up = "hangs up" in name
            t0 = time.monotonic()
            answer = exchange(port, raw, close_write=hangs_up)
            if time.monotonic() - t0 > 1:
                print(f"slow: {name} {time.monotonic() - t0:.1f} s")
            if answer is not None or not (hangs_up or "may reset" in name):
                check(name, answer, allowed, codes)
            n += 1
            assert service.proc.poll() is None, f"the service died on {name}:\n{service.output()[-3000:]}"
        print(f"{len(cases)} crafted requests in {time.monotonic() - started:.1f} s")
        for name, raw, head_mutated in mutated_cases(rng, token, MAX_CASES - len(cases)):
            if time.monotonic() > deadline:
                break
            # A mutated head may declare more than is sent (the service then waits for the rest) or
            # be dropped unanswered; what it does answer must be proper.
            answer = exchange(port, raw, timeout=0.5 if head_mutated else 15)
            if answer is not None or not head_mutated:
                check(name, answer, {200, 202, 400, 401, 404, 405, 411, 413, 414, 422, 429, 431, 505})
            n += 1
            assert service.proc.poll() is None, f"the service died on {name}:\n{service.output()[-3000:]}"
        assert service.proc.poll() is None, "the service died:\n" + service.output()[-3000:]
        # Still answering normally, and still grading.
        status, health = su.request(service.url + "/api/health")
        assert status == 200 and health["ok"] is True, (status, health)
        status, problems = su.request(service.url + "/api/problems")
        assert status == 200 and [p["name"] for p in problems] == ["reduction"], (status, problems)
        status, answer = su.submit(service.url, final, GOOD)
        assert status == 202, (status, answer)
        done = su.wait_done(service.url, final, [answer["id"]], timeout=300)
        assert done[answer["id"]]["verdict"] == "AC", done
        print(f"ok: {n} bad requests in {time.monotonic() - started:.1f} s, "
              f"seed {SEED}; the service still grades")
    finally:
        if service:
            service.stop()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
