import sys

from .cli import main

try:
    sys.exit(main())
except BrokenPipeError:  # output piped into head or a closed reader: not an error
    sys.exit(0)
