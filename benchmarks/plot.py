"""Plot ``bench_core.py`` results: throughput against batch size per preset, log-log, RLCard as a line.

Reads the ``"bench": "core"`` lines of one or more JSONL files (lines with an ``error`` are skipped),
draws one panel per policy with one line per preset (``rounds_per_s`` by default, or ``--metric``) and
RLCard ``UnoGame``'s rate measured in the same runs (the median over the lines of that panel,
``games_per_s`` for rounds and ``steps_per_s`` for decisions) as a dashed horizontal line, and saves a
PNG.  A setting measured more than once (preset, policy, batch size and players) is drawn from its
last line, so a file given after another replaces the points it measured again.

    python benchmarks/plot.py benchmarks/results/core.jsonl              # -> benchmarks/results/core.png
    python benchmarks/plot.py a.jsonl b.jsonl --metric decisions_per_s --png decisions.png
    python benchmarks/plot.py benchmarks/results/core.jsonl benchmarks/results/core_batch1.jsonl \
        --metric decisions_per_s --png benchmarks/results/core_decisions.png   # the docs' plot
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PEER_METRIC = {"rounds_per_s": "games_per_s", "decisions_per_s": "steps_per_s",
               "engine_only_decisions_per_s": "steps_per_s"}
LABELS = {"rounds_per_s": "rounds / s (RLCard: games / s)",
          "decisions_per_s": "decisions / s (RLCard: steps / s)",
          "engine_only_decisions_per_s": "decisions / s in step() alone (RLCard: steps / s)"}


def load(path: Path, players: int | None = None) -> list[dict]:
    """The successful ``core`` records of ``path`` (optionally for one player count)."""
    records = []
    with path.open() as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{n} is not a JSON line ({exc}); expected bench_core.py output") \
                    from None
            if rec.get("bench") != "core" or "error" in rec:
                continue
            if players is None or rec["players"] == players:
                records.append(rec)
    return records


def latest(records: list[dict]) -> list[dict]:
    """The last record of each setting (preset, policy, batch size, players), in first-seen order."""
    last = {(r["preset"], r["policy"], r["batch_size"], r["players"]): r for r in records}
    return list(last.values())


def plot(records: list[dict], metric: str, png: Path, title: str | None = None) -> Path:
    """Draw one panel per policy and save it to ``png``."""
    policies = sorted({r["policy"] for r in records})
    fig, axes = plt.subplots(1, len(policies), figsize=(6 * len(policies), 4.5), squeeze=False, sharey=True)
    for ax, policy in zip(axes[0], policies, strict=True):
        lines: dict[str, list[tuple[int, float]]] = defaultdict(list)
        peer = []
        for r in records:
            if r["policy"] != policy or r.get(metric) is None:
                continue
            lines[r["preset"]].append((r["batch_size"], r[metric]))
            if r.get("peer") and PEER_METRIC[metric] in r["peer"]:
                peer.append(r["peer"][PEER_METRIC[metric]])
        for preset, pts in sorted(lines.items()):
            pts.sort()
            ax.plot([b for b, _ in pts], [v for _, v in pts], marker="o", label=preset)
        if peer:
            ax.axhline(statistics.median(peer), color="k", linestyle="--",
                       label=f"RLCard UnoGame ({statistics.median(peer):,.0f})")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("batch size (games stepped together)")
        ax.set_title(f"policy: {policy}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0][0].set_ylabel(LABELS[metric])
    players = sorted({r["players"] for r in records})
    v = records[0].get("versions", {})
    fig.suptitle(title or f"uno_env {v.get('uno_env')} core vs RLCard {v.get('rlcard')}, "
                 f"{'/'.join(map(str, players))} players\nnumpy {v.get('numpy')}, python {v.get('python')}",
                 fontsize=10)  # two lines: one panel is narrower than the full title
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return png


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Plot bench_core.py JSON lines (log-log, RLCard as a line).")
    p.add_argument("jsonl", type=Path, nargs="+", help="files written by bench_core.py --out")
    p.add_argument("--png", type=Path, default=None,
                   help="output image (default: the first JSONL file's name with .png)")
    p.add_argument("--metric", default="rounds_per_s", choices=sorted(PEER_METRIC), help="y axis")
    p.add_argument("--players", type=int, default=None, help="only lines with this player count")
    p.add_argument("--title", default=None, help="figure title (default: versions and player count)")
    args = p.parse_args(argv)
    records = latest([r for path in args.jsonl for r in load(path, args.players)])
    if not records:
        print(f"no successful 'core' lines in {', '.join(map(str, args.jsonl))}", file=sys.stderr)
        return 1
    png = plot(records, args.metric, args.png or args.jsonl[0].with_suffix(".png"), args.title)
    print(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
