"""A ruleset written out as a rulebook a new player can learn from (Markdown, HTML)."""
