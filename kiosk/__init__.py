"""The kiosk application: the coup state machine, the journal, the command line."""

import os

# pygame greets on import, in English, on the juge-arbitre's terminal: not for our users
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
