"""The projected room screen (pygame): grid, tirage, countdown, tops."""
