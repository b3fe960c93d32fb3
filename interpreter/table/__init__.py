"""Everything between a game and the people and files around it: a person at the
terminal, narration and views, logs, snapshots, the files and values given on the command line."""
