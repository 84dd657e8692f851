"""PyYAML's safe loader, chosen once for every reader of YAML: libyaml's, where PyYAML was built
with it (several times faster on a long list or a big catalog), else its pure-Python twin."""

try:
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as Loader  # type: ignore[assignment]  # the C loader's pure-Python twin

__all__ = ["Loader"]
