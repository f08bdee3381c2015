from typing import Any

harfbuzz: Any  # the cffi libraries: None where the system lacks them
harfbuzz_subset: Any
