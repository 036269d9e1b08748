"""The ASGI application: what the web processes serve (gunicorn's uvicorn workers, `make run`'s
uvicorn), so that the encounters' event streams (encounters.push) hold no worker."""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# whitenoise answers static files with a file iterator, which Django's ASGI handler reads in a
# thread, warning on every file; the files are served correctly (nginx serves them in front).
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous "
                        "iterators", category=Warning, module="django.core.handlers.asgi")
application = get_asgi_application()

from config.static import static_files_check  # noqa: E402 (needs settings)

static_files_check()  # refuse to serve 500s when collectstatic was not run
