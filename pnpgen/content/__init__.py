"""Content: safe YAML loading with positions, schema checks, and the game folder model."""

from pnpgen.content.schema import Any_, Choice, Each, OneOf, Range, Text, check, text_for
from pnpgen.content.yamlpos import YList, YMap, load_yaml, where

__all__ = ["YList", "YMap", "load_yaml", "where", "check", "Any_", "Choice", "Each", "OneOf", "Range", "Text",
           "text_for"]
