from tmplkit import quote

from .app import App
