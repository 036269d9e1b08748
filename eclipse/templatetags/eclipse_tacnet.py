"""Template helper of the TACNet panel on the encounter pages (eclipse.tacnet.panel)."""

from django import template

from eclipse.tacnet import panel

register = template.Library()


@register.simple_tag(takes_context=True)
def eclipse_tacnet(context, view):
    """eclipse.tacnet.Panel of ``view`` for the request's user."""
    return panel(view=view, user=context["request"].user)
