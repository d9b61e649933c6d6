"""Shared by the Python benchmark drivers: rows appended to the results file
that dapetra-bench writes (build/bench/results.json, or check.json)."""
import json
import os


def append_rows(path, rows):
    """Adds `rows` to the JSON list in `path` (creating it)."""
    existing = []
    if os.path.exists(path):
        with open(path) as f:
            existing = json.load(f)
    with open(path, "w") as f:
        json.dump(existing + rows, f, indent=1)
