import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()

from config.static import static_files_check  # noqa: E402 (needs settings)

static_files_check()  # refuse to serve 500s when collectstatic was not run
