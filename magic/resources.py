"""Eternal War One II's spells from spreadsheets (campaigns.resources)."""

from campaigns.resources import CatalogueResource
from magic.models import Spell


class SpellResource(CatalogueResource):
    class Meta(CatalogueResource.Meta):
        model = Spell
