"""pnpgen: describe a print-and-play game once in YAML; get a printable release and proof it works."""

__version__ = "0.1.0"
