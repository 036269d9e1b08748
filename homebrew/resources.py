"""The homebrew's weapons from spreadsheets (campaigns.resources)."""

from campaigns.resources import CatalogueResource
from homebrew.models import WeaponTemplate


class WeaponTemplateResource(CatalogueResource):
    class Meta(CatalogueResource.Meta):
        model = WeaponTemplate
