"""French announcements of the juge-arbitre, synthesised with espeak-ng without blocking the display."""
