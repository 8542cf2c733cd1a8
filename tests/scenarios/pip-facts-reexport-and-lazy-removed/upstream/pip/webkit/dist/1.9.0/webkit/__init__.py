from tmplkit import Safe, quote

from .app import App
