"""The projected room screen (pygame): grid, tirage, countdown, tops.

Kiosk API: ``RoomDisplay.open(display_index=None, window_size=None)``, then
``show(view)``, ``tick(remaining_seconds)``, ``pump_events()``, ``screenshot(path)``;
``render(view, surface)`` draws a ``View`` on any surface (tests, snapshots).
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
