"""Army lists: reading a list file, costing it, judging it against the force rules, the report."""
