"""The applications: the ``uno`` command line (``cli``), the terminal game (``terminal``) and the web app
(``web``: the replay page and ``uno serve``).  They stand on every other layer (the rules core, the
environments, ``agents``, ``training``) and may import all of it; nothing outside this package imports
them (docs/architecture.md, "The layers")."""
