"""What each optional extra installs, and the one error a feature raises when its extra is missing.

The light install (``pip install -e .``: numpy, Gymnasium, PettingZoo) has the rules, the environments, the
bots, the terminal game and ``uno eval`` of the bots.  The rest needs an extra (``pyproject.toml``): the trained
agents and the trainers the ``train`` extra (PyTorch, Stable-Baselines3, ...; ``uno eval``'s ratings and plot
too), ``uno serve`` the ``web`` extra, RLlib the ``scale`` extra.  A feature that needs one says so in one
line, naming the extra and the command that installs it, instead of ending in ``No module named 'torch'``::

    with extras.needs("train", "the trained agent 'ppo-standard_en-2p'"):
        from agents.policy import PolicyAgent

raises ``MissingExtraError`` (a ``ModuleNotFoundError``, so code that catches ``ImportError`` still does):
``the trained agent 'ppo-standard_en-2p' needs the train extra (no module named 'torch' here): pip install -e
".[train]"``.  The commands print that line and exit with status 1, without a traceback (``needs(...,
script=True)``, or the ``uno`` command's own handler).

The standard library only: every layer may use it.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from importlib.util import find_spec

# the extras of pyproject.toml, each with the modules its features import (what ``require`` looks for)
EXTRAS: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "tqdm", "openskill", "matplotlib", "tensorboard"),
    "web": ("starlette", "uvicorn"),
    "scale": ("ray",),
    "notebooks": ("jupyter", "pandas", "matplotlib"),
    "dev": ("pytest", "mkdocs", "properdocs"),
}
PLAY = ("torch", "stable_baselines3", "sb3_contrib")  # what a trained agent needs to play (agents.policy)
OWN = ("uno_env", "agents", "training", "uno_apps", "research")  # never "missing": a missing one is a bug
EXIT = 1  # the exit status of a command whose extra is missing


def install_command(extra: str) -> str:
    """The command that installs ``extra`` in a clone of the repository."""
    return f'pip install -e ".[{extra}]"'


class MissingExtraError(ModuleNotFoundError):
    """A feature needs an optional extra that is not installed; the message names the extra and its install
    command (``extra``, ``feature`` and ``name``, the missing module, are attributes)."""

    def __init__(self, extra: str, feature: str, missing: str):
        if extra not in EXTRAS:
            raise ValueError(f"unknown extra {extra!r}; the extras are: {', '.join(EXTRAS)}")
        self.extra, self.feature = extra, feature
        super().__init__(f"{feature} needs the {extra} extra (no module named {missing!r} here): "
                         f"{install_command(extra)}", name=missing)


def missing_module(exc: ImportError) -> str | None:
    """The third-party module ``exc`` says is missing, or ``None`` (not a missing module, or one of this
    project's own: that is a bug, not a missing extra)."""
    name = getattr(exc, "name", None)
    if not isinstance(exc, ModuleNotFoundError) or not name or name.split(".")[0] in OWN:
        return None
    return name


def _absent(module: str) -> bool:
    try:
        return find_spec(module) is None
    except (ImportError, ValueError):  # a parent package that is missing, or a module blanked out in sys.modules
        return True


def require(extra: str, feature: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise ``MissingExtraError`` now if a module of ``extra`` (or of ``modules``, those of it the feature
    imports) is not installed; nothing is imported."""
    for module in EXTRAS[extra] if modules is None else modules:
        if _absent(module):
            raise MissingExtraError(extra, feature, module)


def extra_for(missing: str, extras: str | tuple[str, ...]) -> str:
    """Which of ``extras`` (one name, or several a feature needs) installs the module ``missing``: the first
    whose modules include it, else the first."""
    candidates = (extras,) if isinstance(extras, str) else tuple(extras)
    top = missing.split(".")[0]
    return next((e for e in candidates if top in EXTRAS[e]), candidates[0])


@contextmanager
def needs(extra: str | tuple[str, ...], feature: str, script: bool = False):
    """Turn a third-party module missing inside the block into ``MissingExtraError`` naming ``extra`` (or,
    given several, the one that installs the missing module: ``extra_for``); one raised inside by another
    ``needs`` passes through as it is.  With ``script`` (a module run as a command: pass ``__name__ ==
    "__main__"``), print that error as one line and exit instead, without a traceback."""
    for name in (extra,) if isinstance(extra, str) else extra:
        if name not in EXTRAS:
            raise ValueError(f"unknown extra {name!r}; the extras are: {', '.join(EXTRAS)}")
    try:
        yield
    except MissingExtraError as exc:
        if script:
            exit_with(exc)
        raise
    except ModuleNotFoundError as exc:
        missing = missing_module(exc)
        if missing is None:
            raise
        error = MissingExtraError(extra_for(missing, extra), feature, missing)
        if script:
            exit_with(error)
        raise error from None


def exit_with(error: MissingExtraError, prog: str | None = None) -> None:
    """Print ``error`` as one line (``prog: error: ...``) to standard error and exit with status 1."""
    print(f"{prog or _prog()}: error: {error}", file=sys.stderr)
    raise SystemExit(EXIT)


def _prog() -> str:
    """The command being run, as its users typed it: ``uno`` or ``python -m training.train_ppo``."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name and not spec.name.startswith("uno_apps.cli"):
        return f"python -m {spec.name}"
    return "uno"


__all__ = ["EXTRAS", "MissingExtraError", "exit_with", "extra_for", "install_command", "missing_module", "needs",
           "require"]
