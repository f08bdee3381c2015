# Types for the part of zxcvbn that scorekeeper uses: the package ships none.
from collections.abc import Sequence
from typing import Any

def zxcvbn(
    password: str, user_inputs: Sequence[str] | None = None, max_length: int = 72
) -> dict[str, Any]: ...
