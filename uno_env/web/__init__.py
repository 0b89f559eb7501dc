"""UNO in the browser: one self-contained replay page (``page``) and a local web app (``app``, the ``web``
extra) that draw the same seat views (``table.seat_view``) with the same script (``static/uno.js``)."""
