#!/usr/bin/env python3
"""Judges the workers' side of one run of ops/balancer-suite.sh (stdlib only).

Inputs: the phones' log (ops/balancer-helpers.py phones), the webhook receiver's log, and the event log
(`journeys events tail`). Fails when a phone journey whose success callback was acknowledged did not
complete, a phone gave up or got a 500, a journey's journey.started or journey.completed was never
delivered, or one event was delivered under two message ids (a duplicate, as opposed to a redelivery
of the same webhook-id, which at-least-once delivery allows and is only counted).
With --quick (used to wait for the due work): only "every phone journey completed and delivered".
"""
import argparse
import collections
import json
import sys


def lines(path):
    try:
        with open(path, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]
    except FileNotFoundError:
        return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", required=True)
    parser.add_argument("--webhooks", required=True)
    parser.add_argument("--events")
    parser.add_argument("--phone-statuses")
    parser.add_argument("--pending-work", help="work_leases not done: journey, kind, tries, outcome (tab-separated)")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    phones = lines(args.phones)
    deliveries = lines(args.webhooks)
    delivered = collections.defaultdict(set)  # (journey, type, attempt) -> webhook ids
    received = collections.Counter()
    for d in deliveries:
        delivered[(d["journeyId"], d["type"], d.get("attempt"))].add(d["id"])
        received[d["id"]] += 1
    by_journey_type = {(j, t) for (j, t, _a) in delivered}
    called_back = [p for p in phones if p.get("callback") == 200]
    problems = []
    for p in called_back:
        if (p["journeyId"], "journey.completed") not in by_journey_type:
            problems.append(f"phone journey {p['journeyId']} (callback acknowledged, then {p.get('statusAfterCallback')}) "
                            "has no journey.completed delivery")
    if args.quick:
        return 1 if problems or not called_back else 0

    for p in phones:
        if "gaveUp" in p or "failed" in p:
            problems.append(f"phone journey {p.get('journeyId')} stopped at {p['step']}: "
                            f"{p.get('gaveUp', p.get('failed'))} {p.get('code') or ''}")
    statuses = {}
    if args.phone_statuses:
        with open(args.phone_statuses, encoding="utf-8") as handle:
            statuses = json.load(handle)
    for step_status, n in statuses.items():
        if step_status.endswith(" 500"):
            problems.append(f"phones got 500 on {step_status.split()[0]} {n} times")

    events = lines(args.events) if args.events else []
    started, completed, fetched = set(), set(), collections.Counter()
    for e in events:
        journey = e["stream"].removeprefix("journey-")
        if e["type"] == "JourneyStarted":
            started.add(journey)
        elif e["type"] == "JourneyCompleted":
            completed.add(journey)
        elif e["type"] == "ResultFetched":
            fetched[journey] += 1
    # A result still being fetched (its item scheduled, Get Process failing so far) is not lost.
    still_fetching = {}
    if args.pending_work:
        with open(args.pending_work, encoding="utf-8") as handle:
            for line in handle:
                fields = line.rstrip("\n").split("\t")
                if len(fields) >= 4 and fields[1] == "fetchResult":
                    still_fetching[fields[0]] = (int(fields[2]), fields[3])
    retrying = []
    for p in called_back:
        if p["journeyId"] in completed:
            continue
        if p["journeyId"] in still_fetching:
            retrying.append(p["journeyId"])
        else:
            problems.append(f"phone journey {p['journeyId']} has no JourneyCompleted in the log and no result fetch scheduled")
    problems = [q for q in problems if not any(j in q and "journey.completed delivery" in q for j in retrying)]
    for journey in retrying:
        tries, outcome = still_fetching[journey]
        print(f"phone journey {journey}: result still being fetched by the workers ({tries} tries so far, last {outcome})")
    for journey in sorted(started):
        if (journey, "journey.started") not in by_journey_type:
            problems.append(f"journey {journey} started, but journey.started was never delivered")
    for journey in sorted(completed):
        if (journey, "journey.completed") not in by_journey_type:
            problems.append(f"journey {journey} completed, but journey.completed was never delivered")
    for (journey, kind, attempt), ids in sorted(delivered.items(), key=str):
        if len(ids) > 1:
            problems.append(f"{kind} of journey {journey} attempt {attempt} was delivered as {len(ids)} messages: "
                            + ", ".join(sorted(ids)))
    redelivered = sum(n - 1 for n in received.values() if n > 1)
    after_callback = collections.Counter(p.get("statusAfterCallback") for p in called_back)
    print(f"balancer check: {len(phones)} phone records, {len(called_back)} success callbacks acknowledged "
          f"(state right after: {dict(after_callback)}), {len(completed)} journeys completed in the log, "
          f"{sum(fetched.values())} results fetched; {len(deliveries)} webhook deliveries for {len(received)} "
          f"messages ({redelivered} redelivered under the same id)")
    if statuses:
        print("phone calls by step and status: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
    if problems:
        print(f"balancer check FAILED ({len(problems)} problems):", file=sys.stderr)
        for problem in problems[:40]:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    print("balancer check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
