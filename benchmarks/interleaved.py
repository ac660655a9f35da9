"""Interleaved timing for the benchmarks: the compared methods alternate run by run.

On a shared, noisy machine two methods timed in separate blocks see different loads (issue 15:
benchmarks/integrators.py gave 1.16, 1.69 and 1.52 in three such runs). Here the methods run
A, B, A, B, ... (in rounds, each method once per round), the ratio is taken within each round,
and the median ratio is reported with its spread (smallest and largest ratio of the rounds).

Used by benchmarks/discrete_similarity.py, benchmarks/structure_graph.py and
benchmarks/integrators.py (``from interleaved import ...``: scripts run from this folder).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Timing:
    """Per-round wall times (s) of each method and the per-round ratios to the first method."""

    times: dict
    results: dict

    def median_time(self, name):
        return float(np.median(self.times[name]))

    def ratios(self, name, base):
        """Ratios time(name) / time(base), one per round."""
        return np.asarray(self.times[name]) / np.asarray(self.times[base])

    def ratio_text(self, name, base):
        """'median (min - max)' of the per-round ratios time(name) / time(base)."""
        r = self.ratios(name, base)
        return f"{np.median(r):6.3f} ({r.min():.3f} - {r.max():.3f})"


def interleaved(runs, rounds, warmup=True):
    """Time ``runs`` (a dict name -> function) in ``rounds`` rounds, each method once per round.

    With ``warmup`` every function is called once before the timed rounds (imports, caches,
    first-call costs). Returns a :class:`Timing` with the last result of each function.
    """
    results = {}
    if warmup:
        for name, run in runs.items():
            results[name] = run()
    times = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            results[name] = run()
            times[name].append(time.perf_counter() - start)
    return Timing(times=times, results=results)


def print_machine(note=""):
    """The core count (the benchmarks share the machine), the BLAS thread setting and the load."""
    threads = os.environ.get("OPENBLAS_NUM_THREADS") or os.environ.get("OMP_NUM_THREADS") or "default"
    print(f"os.cpu_count() = {os.cpu_count()}, BLAS threads: {threads}, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if threads == "default" and os.getloadavg()[0] > (os.cpu_count() or 1):
        print("note: the load is above the core count, and multi-threaded BLAS calls then wait for "
              "their second thread;\n      to compare the algorithms rather than the scheduler, "
              "run with OPENBLAS_NUM_THREADS=1")
    if note:
        print(note)
