"""Eternal War One II's items from spreadsheets (campaigns.resources; their modifiers stay in
the admin's inline)."""

from campaigns.resources import CatalogueResource
from ew1.models import ItemTemplate


class ItemTemplateResource(CatalogueResource):
    class Meta(CatalogueResource.Meta):
        model = ItemTemplate
