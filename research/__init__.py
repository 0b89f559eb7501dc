"""Research probes: experiments that ask a question about the game or the agents and print the answer.

Not part of the installed package (``pyproject.toml`` packages ``uno_env``, ``agents`` and ``training``
only), and nothing in those packages imports it; run the probes from a checkout (``python -m research.NAME``).
See ``research/README.md``.
"""
