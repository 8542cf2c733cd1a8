SECRET_KEY = "dev-only"
DEBUG = True
ROOT_URLCONF = "tracker.urls"
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "tracker"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "tracker.sqlite3"}}
USE_I18N = True
