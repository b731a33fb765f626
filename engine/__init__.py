"""Rules of Duplicate Scrabble: lexicon, board, moves, scoring, draws, correction, ranking (pure Python)."""
