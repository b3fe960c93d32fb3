"""Phase 5b, compile further: a whole game with its seats as one generated Python function."""
