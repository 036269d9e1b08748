import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from config.static import static_files_check  # noqa: E402 (needs settings)

static_files_check()  # refuse to serve 500s when collectstatic was not run
