import json

from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign
from transfer.exporter import campaign_export


class Command(BaseCommand):
    help = ("Write the campaign named NAME (or of id NAME) as a versioned JSON document to FILE "
            "(\"-\": standard output); docs/export.md.")

    def add_arguments(self, parser):
        parser.add_argument("campaign")
        parser.add_argument("file")
        parser.add_argument("--no-files", action="store_true",
                            help="Leave the portraits and backgrounds out.")

    def handle(self, *args, **options):
        key = options["campaign"]
        campaign = (Campaign.objects.filter(name=key).first()
                    or (Campaign.objects.filter(pk=int(key)).first() if key.isdigit() else None))
        if campaign is None:
            raise CommandError(f"No campaign {key!r}.")
        document = campaign_export(campaign=campaign, include_files=not options["no_files"])
        text = json.dumps(document, ensure_ascii=False, indent=1)
        if options["file"] == "-":
            self.stdout.write(text)
            return
        with open(options["file"], "w", encoding="utf-8") as handle:
            handle.write(text)
        rows = sum(len(v) for v in document["models"].values())
        self.stderr.write(f"{campaign.name}: {rows} rows written to {options['file']}.")
