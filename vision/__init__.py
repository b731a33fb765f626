"""Reading photographed bulletins: page, fields, characters, decoding against the game."""
