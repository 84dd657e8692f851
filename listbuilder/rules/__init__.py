"""Rule sets: their file formats, loading and checking catalogs, reference tables, and the cache."""
