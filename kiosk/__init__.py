"""The kiosk application: the coup state machine, the journal, the command line."""
