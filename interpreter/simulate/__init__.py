"""Many seeded games with bots: the runner, the report's summary and statistics, charts."""
