"""The one exception type the model raises for bad input."""


class ModelInputError(ValueError):
    """A value outside what the model accepts.

    ``field`` names the offending option or entry field, ``allowed`` says what it accepts; the
    message reads ``<field>: <problem>; allowed: <allowed>`` so a CLI or build log can print it
    as one line.
    """

    def __init__(self, field: str, problem: str, allowed: str):
        self.field = field
        self.problem = problem
        self.allowed = allowed
        # (no "allowed" for a text that was read but cannot be used: its problem says what to give)
        super().__init__(f"{field}: {problem}; allowed: {allowed}" if allowed else f"{field}: {problem}")
