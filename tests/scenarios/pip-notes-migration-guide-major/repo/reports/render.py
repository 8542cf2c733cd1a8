from jinja2 import Template

PAGE = Template("<ul>{% for h in headings %}<li>{{ h }}</li>{% endfor %}</ul>")


def render(headings):
    return PAGE.render(headings=headings)
