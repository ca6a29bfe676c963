"""Prints the JSON object a --json command wrote, one fact per line; fails
unless the file is exactly one JSON object."""
import json
import os
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)


def where(location):
    return os.path.basename(location) if location else ""


print("ok", report.get("ok", True), "status", report["status"],
      *(("stalled", report["stalled"]) if "stalled" in report else ()))
for diag in report.get("diagnostics", []):
    print(diag["severity"], where(diag["location"]), diag["message"])
    for note in diag.get("notes", []):
        print(" ", note["severity"], where(note["location"]), note["message"])
for waiter in report.get("waiters", []):
    print("waiter", waiter["core"], waiter["op"], where(waiter["location"]))
