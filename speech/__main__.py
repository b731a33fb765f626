"""``python -m speech``: see :mod:`speech.cli`."""

import sys

from .cli import main

sys.exit(main())
