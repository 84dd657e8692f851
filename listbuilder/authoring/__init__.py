"""Tools for rule-set authors: a catalog's own tests, what a points change does, faction books."""
