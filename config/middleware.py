"""HTTP plumbing shared by every page."""

from django.utils.cache import patch_vary_headers


class VaryOnHtmxMiddleware:
    """Add ``Vary: HX-Request`` to every response.

    Pages answer htmx with a fragment at their own URL (the board, the sheet, the leaderboard,
    drafts, factions): without this header a browser's Back button or a shared cache may show
    the bare fragment as the page (django-htmx's docs, "Vary on HX-Request"). Set on every
    response rather than view by view, so that a new page that checks ``request.htmx`` cannot
    forget it.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response
