"""meeple's language: YAML rulesets in, checked rulesets (or located diagnostics) out.

The pipeline (dsl/pipeline.py): load (dsl/loader.py) -> structure (dsl/structure.py) ->
parse (dsl/parser.py) -> check (dsl/checker.py, dsl/sections.py). The interpreter builds on it;
this package never imports the interpreter.
"""

from dsl.diagnostics import Diagnostic, render
from dsl.pipeline import Validation, validate_path, validate_text

__all__ = ["Diagnostic", "Validation", "render", "validate_path", "validate_text"]
