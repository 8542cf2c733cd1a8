from formkit import Form, StringField
from formkit.validators import DataRequired, Email, Length


class SignUpForm(Form):
    email = StringField("Email", validators=[DataRequired(), Email()])
    name = StringField("Name", validators=[Length(max=80)])
