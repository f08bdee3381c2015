from wtforms import FileField as FileField
