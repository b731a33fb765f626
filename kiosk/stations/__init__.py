"""Arbiter stations over the club's network: phones and laptops photograph and correct.

The kiosk starts a small web server (:mod:`.server`, aiohttp) in a process of its
own, so that neither the requests nor the reading of photos take time from the
room's frames. That process is the one writer of the game journal for every
station: each accepted request is journaled (:mod:`.hub`, on the game's
:class:`~kiosk.session.Session`) before it is answered, so the journal stays the
one source of truth and the juge-arbitre's console sees the corrections appear
as it syncs. Photos are read in worker processes (:mod:`.reader`).

Modules: ``network`` (addresses, secrets) · ``hub`` (what a station may do) ·
``reader`` (photo reading workers) · ``server`` (HTTP, limits) · ``launch`` (the
server process started by the kiosk) · ``panel`` (the console's view and drawing)
· ``static/`` (the phone page: plain HTML, CSS and JavaScript, no build step).
"""
