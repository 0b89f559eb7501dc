"""Throughput benchmarks for the batched UNO core and its peers (RLCard, PettingZoo's old ``uno_v4``).

Run as scripts (``python benchmarks/bench_core.py --help``) or modules (``python -m benchmarks.bench_core``).
Every script prints one JSON line per setting; ``plot.py`` turns a JSONL file into a figure.
"""
