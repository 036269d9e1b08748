import json

from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign
from transfer.errors import TransferError
from transfer.importer import campaign_import


class Command(BaseCommand):
    help = ("Import the campaign document FILE (export_campaign's) as a new campaign, or merge its "
            "items, spells and templates into an existing one (--into); docs/export.md.")

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--name", help="The new campaign's name (the document's by default).")
        parser.add_argument("--into", help="Merge the catalogue into this campaign (name or id).")
        parser.add_argument("--create-users", action="store_true",
                            help="Create the missing accounts, inactive with no usable password.")

    def handle(self, *args, **options):
        try:
            with open(options["file"], encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, ValueError) as error:
            raise CommandError(f"{options['file']}: {error}") from error
        into = None
        if options["into"]:
            key = options["into"]
            into = (Campaign.objects.filter(name=key).first() or (
                Campaign.objects.filter(pk=int(key)).first() if key.isdigit() else None))
            if into is None:
                raise CommandError(f"No campaign {key!r}.")
        try:
            result = campaign_import(document=document, into=into, name=options["name"],
                                     create_missing_users=options["create_users"])
        except TransferError as error:
            conflicts = error.params.get("conflicts") or []
            details = "".join(f"\n  {c['model']} {c['name']}: {', '.join(c['fields'])}"
                              for c in conflicts)
            raise CommandError(f"[{error.code}] {error}{details}") from error
        created = ", ".join(f"{n} {label}" for label, n in result.created.items() if n)
        self.stdout.write(self.style.SUCCESS(
            f"{result.campaign.name} (id {result.campaign.pk}): created {created or 'nothing'}."))
        if result.unchanged:
            self.stdout.write("Unchanged: " + ", ".join(
                f"{n} {label}" for label, n in result.unchanged.items()))
        if result.users_created:
            self.stdout.write("Inactive accounts created: " + ", ".join(result.users_created))
