#!/usr/bin/env python3
"""Helpers of ops/balancer-suite.sh (stdlib only).

  receiver --port-file F --log F        the company's webhook endpoint: records every delivery
                                        (webhook-id, type, journeyId, attempt) as a JSON line, answers 204
  phones --base-url U --unico-url U --api-key K --phones N --stop-file F --log F --drain S
                                        simulated phones: each starts a journey (no process at start),
                                        asks for a webAppToken, captures at the emulator (approved),
                                        reports the success callback, then the next one; every call is
                                        retried until a final answer. Get Process failing at the emulator
                                        leaves the result to the workers (fetchResult).
Both stop by themselves: the receiver when --stop-file exists, the phones --drain s after it.
"""
import argparse
import http.server
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid


def receiver(args):
    lock = threading.Lock()
    out = open(args.log, "a", encoding="utf-8")

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                message = json.loads(body)
            except ValueError:
                message = {}
            data = message.get("data") or {}
            line = {"id": self.headers.get("webhook-id"), "type": message.get("type"),
                    "journeyId": data.get("journeyId"), "attempt": data.get("attempt"), "at": time.time()}
            with lock:
                out.write(json.dumps(line) + "\n")
                out.flush()
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file, "w", encoding="utf-8") as handle:
        handle.write(str(server.server_address[1]))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    deadline = time.time() + args.max_seconds
    while not os.path.exists(args.stop_file) and time.time() < deadline:
        time.sleep(0.2)
    server.shutdown()


def call(method, url, body=None, token=None, key=None, timeout=20):
    """One request: (status, JSON body); status 0 when no answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if key:
        request.add_header("Idempotency-Key", key)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
            return response.status, (json.loads(raw) if raw else {})
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw)
        except ValueError:
            return error.code, {}
    except Exception:  # reset, refused, timeout: no answer
        return 0, {}


# A UUID's digits written as letters: an 11-digit run would read as a CPF, which the service
# refuses in a clientReference (no personal-data shapes outside the sealed subject).
LETTERS = str.maketrans("0123456789", "ghijklmnop")


def random_cpf():
    digits = [random.randint(0, 9) for _ in range(9)]
    for length in (9, 10):
        total = sum(d * (length + 1 - i) for i, d in enumerate(digits[:length]))
        digits.append((total * 10 % 11) % 10)
    return "".join(map(str, digits))


def phones(args):
    lock = threading.Lock()
    out = open(args.log, "a", encoding="utf-8")
    stop_at = [None]
    statuses = {}

    def record(entry):
        with lock:
            out.write(json.dumps(entry) + "\n")
            out.flush()

    def stopping():
        if stop_at[0] is None and os.path.exists(args.stop_file):
            stop_at[0] = time.time()
        return stop_at[0] is not None

    def until_final(step, method, url, body=None, token=None, key=None, ok=(200, 201), journey=None):
        """Retries every second until an answer in ok or a 4xx other than 409/429; gives up after the drain."""
        while True:
            status, answer = call(method, url, body, token, key)
            with lock:
                statuses[f"{step} {status}"] = statuses.get(f"{step} {status}", 0) + 1
            if status in ok:
                return status, answer
            if 400 <= status < 500 and status not in (409, 429):
                record({"journeyId": journey, "step": step, "failed": status, "code": answer.get("code")})
                return status, answer
            if stop_at[0] is not None and time.time() > stop_at[0] + args.drain:
                record({"journeyId": journey, "step": step, "gaveUp": status, "code": answer.get("code")})
                return None, answer
            time.sleep(1)

    def phone(number):
        while not stopping():
            key = str(uuid.uuid4())
            body = {"subject": {"documentType": "DUI_TYPE_BR_CPF", "documentNumber": random_cpf(), "name": "Phone Person"},
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess",
                    "clientReference": "phone-" + key.translate(LETTERS)}
            status, started = until_final("start", "POST", f"{args.base_url}/v1/journeys", body, args.api_key, key, ok=(201,))
            if status != 201:
                continue
            journey, client = started["journeyId"], started["clientToken"]
            status, token = until_final("token", "POST", f"{args.base_url}/v1/journeys/{journey}/token", {}, client,
                                        journey=journey)
            if status != 200:
                continue
            status, capture = until_final("prepare", "POST", f"{args.unico_url}/sdk/captures",
                                          {"webAppToken": token["webAppToken"], "environment": "UAT"}, ok=(201,),
                                          journey=journey)
            if status != 201:
                continue
            until_final("opened", "POST", f"{args.base_url}/v1/journeys/{journey}/capture-opened",
                        {"attempt": token["attempt"]}, client, journey=journey)
            status, _ = until_final("finish", "POST", f"{args.unico_url}/sdk/captures/{capture['captureId']}/finish",
                                    {"outcome": "approved"}, journey=journey)
            if status != 200:
                continue
            status, answer = until_final("callback", "POST", f"{args.base_url}/v1/journeys/{journey}/callback",
                                         {"outcome": "success", "processId": capture["processId"],
                                          "attempt": token["attempt"]}, client, journey=journey)
            record({"journeyId": journey, "phone": number, "callback": status,
                    "statusAfterCallback": answer.get("status"), "at": time.time()})
            time.sleep(random.uniform(0.2, 1.0))

    threads = [threading.Thread(target=phone, args=(n,), daemon=True) for n in range(args.phones)]
    for thread in threads:
        thread.start()
    deadline = time.time() + args.max_seconds
    for thread in threads:
        thread.join(max(0.1, deadline - time.time()))
    with open(args.log + ".statuses", "w", encoding="utf-8") as handle:
        json.dump(statuses, handle, indent=1, sort_keys=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("receiver")
    r.add_argument("--port-file", required=True)
    r.add_argument("--log", required=True)
    r.add_argument("--stop-file", required=True)
    r.add_argument("--max-seconds", type=float, default=900)
    p = sub.add_parser("phones")
    p.add_argument("--base-url", required=True)
    p.add_argument("--unico-url", required=True)
    p.add_argument("--api-key", required=True)
    p.add_argument("--phones", type=int, default=3)
    p.add_argument("--stop-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--drain", type=float, default=60)
    p.add_argument("--max-seconds", type=float, default=900)
    args = parser.parse_args()
    return receiver(args) if args.command == "receiver" else phones(args)


if __name__ == "__main__":
    sys.exit(main())
