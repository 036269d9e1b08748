"""Eclipse Phase's morphs, weapons and armour from spreadsheets (campaigns.resources)."""

from campaigns.resources import CatalogueResource
from eclipse.models import ArmourTemplate, MorphTemplate, WeaponTemplate


class MorphTemplateResource(CatalogueResource):
    class Meta(CatalogueResource.Meta):
        model = MorphTemplate


class WeaponTemplateResource(CatalogueResource):
    class Meta(CatalogueResource.Meta):
        model = WeaponTemplate


class ArmourTemplateResource(CatalogueResource):
    class Meta(CatalogueResource.Meta):
        model = ArmourTemplate
