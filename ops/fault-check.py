#!/usr/bin/env python3
"""Judges one run of ops/fault-suite.sh (stdlib only).

Inputs: the report of `journeys load` (every attempt of every Idempotency-Key), the faults
(name, down, back: seconds since 1970, tab-separated), the event log (`journeys events tail`),
the emulator's processes (`journeys emulator --processes-file`) and `journeys audit verify`'s
exit status. Prints the status histogram and the recovery time of each fault; exits 1 with
one line per broken promise.
"""
import argparse
import collections
import json
import sys


def load_lines(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", required=True)
    parser.add_argument("--faults", required=True)
    parser.add_argument("--events", required=True)
    parser.add_argument("--processes", required=True)
    parser.add_argument("--audit-status", type=int, required=True)
    parser.add_argument("--audit-output", default=None)
    parser.add_argument("--recovery-max", type=float, default=5.0)
    # A key whose request died inside Unico's Create Process (answered 409 process_creation_pending
    # on retry) waits for the workers' reconciliation (60 s after the intent): its own bound.
    parser.add_argument("--pending-max", type=float, default=75.0)
    args = parser.parse_args()

    with open(args.report, encoding="utf-8") as handle:
        report = json.load(handle)
    faults = []
    with open(args.faults, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                name, down, back = line.rstrip("\n").split("\t")
                faults.append((name, float(down), float(back)))
    events = load_lines(args.events)
    processes = load_lines(args.processes)
    keys = report["keys"]
    problems = []

    # The log: journeys by stream, JourneyStarted by clientReference, ProcessCreated per attempt.
    started_by_stream = {}
    started_by_reference = collections.defaultdict(list)
    processes_in_log = collections.Counter()
    for event in events:
        stream, data = event["stream"], event.get("data") or {}
        if event["type"] == "JourneyStarted":
            started_by_stream[stream] = data
            if data.get("clientReference"):
                started_by_reference[data["clientReference"]].append(stream)
        elif event["type"] == "ProcessCreated":
            processes_in_log[(stream, data.get("attempt"))] += 1

    # Nothing acknowledged is lost: every 2xx's journey is in the log, started for this key.
    acknowledged = [k for k in keys if k.get("finalStatus") and 200 <= k["finalStatus"] < 300]
    for k in acknowledged:
        journey = k.get("journeyId")
        data = started_by_stream.get(f"journey-{journey}") if journey else None
        if data is None:
            problems.append(f"key {k['key']} was acknowledged ({k['finalStatus']}) with journey {journey}, "
                            "which the event log does not hold")
        elif data.get("clientReference") != k["clientReference"]:
            problems.append(f"key {k['key']} was answered with journey {journey}, started for another request")

    # No key made two journeys: in the log, and in what the answers named.
    for reference, streams in started_by_reference.items():
        if reference.startswith("load-") and len(streams) > 1:
            problems.append(f"key {reference[5:]} made {len(streams)} journeys: {', '.join(sorted(streams))}")
    for k in keys:
        if len(k.get("journeyIds", [])) > 1:
            problems.append(f"key {k['key']} was answered with {len(k['journeyIds'])} journeys: {', '.join(k['journeyIds'])}")

    # No attempt got two Unico processes: at the emulator (by the attempt's clientReference) and in the log.
    per_attempt = collections.Counter(p["clientReference"] for p in processes if p.get("clientReference"))
    for reference, count in sorted(per_attempt.items()):
        if count > 1:
            problems.append(f"attempt {reference} got {count} Unico processes")
    for (stream, attempt), count in sorted(processes_in_log.items(), key=str):
        if count > 1:
            problems.append(f"{stream} attempt {attempt} recorded {count} ProcessCreated events")

    if args.audit_status != 0:
        detail = ""
        if args.audit_output:
            with open(args.audit_output, encoding="utf-8") as handle:
                detail = ": " + " / ".join(handle.read().strip().splitlines()[-3:])
        problems.append(f"journeys audit verify exited {args.audit_status}{detail}")

    counts = {int(status): n for status, n in report["statusCounts"].items()}
    if counts.get(500):
        problems.append(f"clients got 500 {counts[500]} times")
    for k in keys:
        status = k.get("finalStatus")
        if status is None:
            last = k["attempts"][-1] if k["attempts"] else {}
            problems.append(f"key {k['key']} got no final answer in {len(k['attempts'])} attempts "
                            f"(last: {last.get('status')} {last.get('code') or ''})")
        elif not 200 <= status < 300:
            problems.append(f"key {k['key']} was refused with {status} "
                            f"{k['attempts'][-1].get('code') or ''} although the request was valid")

    # Recovery: from the fault's end to the success of the last client waiting on it. A key counts
    # for the first fault it waited on (in flight between the fault's start and its end), so that
    # a key still held by one fault does not count again for the next.
    recoveries = []
    slow = []
    counted = set()
    for name, down, back in faults:
        waiting = [k for k in keys if k["key"] not in counted and k["firstAttemptAt"] < back
                   and (k.get("finalAt") is None or k["finalAt"] > down)]
        counted.update(k["key"] for k in waiting)
        in_create = [k for k in waiting
                     if any(a.get("code") == "process_creation_pending" for a in k["attempts"])]
        others = [k for k in waiting if k not in in_create]

        def recovered(group):
            if any(k.get("finalAt") is None for k in group):
                return None
            return max([max(0.0, k["finalAt"] - back) for k in group], default=0.0)

        recovery, pending = recovered(others), recovered(in_create)
        longest = max([(k.get("finalAt") or report["endedAt"]) - k["firstAttemptAt"] for k in waiting], default=0.0)
        recoveries.append((name, back - down, len(waiting), recovery, len(in_create), pending, longest))
        for value, bound, variable, what in ((recovery, args.recovery_max, "FAULTS_RECOVERY_MAX_S", "clients"),
                                             (pending, args.pending_max, "FAULTS_PENDING_MAX_S",
                                              "clients caught inside Create Process")):
            if value is None or value > bound:
                shown = "never (a waiting key got no final answer)" if value is None else f"{value:.1f} s"
                problems.append(f"{name}: {what} recovered in {shown}, over the {bound:g} s aim ({variable})")
                slow.append((name, down, back, waiting))

    total = sum(counts.values())
    print(f"fault suite: {len(keys)} keys, {len(acknowledged)} acknowledged, {total} answers, "
          f"{len(started_by_stream)} journeys in the log, {len(processes)} Unico processes")
    print("status histogram (every attempt; 0 = no answer: refused, reset or timed out):")
    for status in sorted(counts):
        label = "no answer" if status == 0 else str(status)
        print(f"  {label:>9}  {counts[status]:6d}")
    codes = collections.Counter()
    for k in keys:
        for attempt in k["attempts"]:
            if attempt.get("code"):
                codes[f"{attempt['status']} {attempt['code']}"] += 1
    if codes:
        print("problem codes:")
        for code, n in codes.most_common():
            print(f"  {code:<40} {n:6d}")
    print(f"recovery per fault (aim <= {args.recovery_max:g} s from being back to every waiting client's success; "
          f"<= {args.pending_max:g} s for a client whose request died inside Create Process):")
    print(f"  {'fault':<26} {'outage s':>8} {'waiting':>7} {'recovery s':>10} {'in Create Process':>17} "
          f"{'their recovery s':>16} {'longest wait s':>14}")
    for name, outage, waiting, recovery, caught, pending, longest in recoveries:
        shown = "never" if recovery is None else f"{recovery:.1f}"
        shown_pending = "-" if caught == 0 else ("never" if pending is None else f"{pending:.1f}")
        print(f"  {name:<26} {outage:8.1f} {waiting:7d} {shown:>10} {caught:17d} {shown_pending:>16} {longest:14.1f}")
    for name, down, back, waiting in slow:
        # Why a fault's recovery was slow: every attempt of its waiting keys, on the fault's clock.
        print(f"attempts of the clients waiting on {name} (seconds from the fault; back at {back - down:.1f}):")
        for k in sorted(waiting, key=lambda k: k["firstAttemptAt"]):
            line = ", ".join(f"{a['at'] - down:+.1f}:{a['status']}{'/' + a['code'] if a.get('code') else ''}"
                             f" ({a['seconds']:.1f} s)" for a in k["attempts"])
            print(f"  client {k['client']} key {k['key'][:8]}: {line}")
    if problems:
        print(f"fault suite FAILED ({len(problems)} problems):", file=sys.stderr)
        for problem in problems[:40]:
            print(f"  - {problem}", file=sys.stderr)
        if len(problems) > 40:
            print(f"  ... and {len(problems) - 40} more", file=sys.stderr)
        return 1
    print("fault suite passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
