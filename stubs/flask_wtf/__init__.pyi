# Types for the part of Flask-WTF that scorekeeper uses: the package ships none.
from wtforms import Form

from .csrf import CSRFProtect as CSRFProtect

class FlaskForm(Form):
    def is_submitted(self) -> bool: ...
