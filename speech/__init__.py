"""French announcements of the juge-arbitre, spoken with espeak-ng without blocking the display.

Kiosk API: :class:`speech.announcer.Announcer`, text builders in :mod:`speech.texts`,
settings in :class:`speech.settings.SpeechSettings`.
"""
