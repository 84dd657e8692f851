"""The files the library reads and writes: YAML with the place of every value (``yamldoc``),
reading an input file within bounds (``reading``), writing an output whole or not at all
(``writing``), and when a file in a cache folder may be trusted (``private``)."""
