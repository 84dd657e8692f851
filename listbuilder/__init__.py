"""listbuilder: army lists and points for small, home-made and indie wargames rule sets."""

__version__ = "0.1.0"
