"""UNO in the browser: one self-contained replay page (``page``) and a local web app (``app``, the ``web``
extra) that draw the same seat views (``uno_env.view.seat_view``) with the same script (``static/uno.js``)."""
