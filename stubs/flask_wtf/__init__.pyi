# Types for the part of Flask-WTF that scorekeeper uses: the package ships none.
from typing import Any

from wtforms import Form

from .csrf import CSRFProtect as CSRFProtect

class FlaskForm(Form):
    def validate_on_submit(self, extra_validators: Any = None) -> bool: ...
    def is_submitted(self) -> bool: ...
