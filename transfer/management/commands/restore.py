from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from transfer.backup import database_restore
from transfer.errors import TransferError


class Command(BaseCommand):
    help = ("Replace the whole database by the backup in FILE (manage.py backup's). Stop the "
            "site's processes first. PostgreSQL: pg_restore --clean (docs/export.md).")

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--database", default="default")
        parser.add_argument("--print-only", action="store_true",
                            help="PostgreSQL: print the pg_restore command instead of running it.")
        parser.add_argument("--yes", action="store_true", help="Do not ask for confirmation.")

    def handle(self, *args, **options):
        if not options["yes"]:
            answer = input("Every table of the database will be replaced. Type 'yes': ")
            if answer.strip() != "yes":
                raise CommandError("Restore cancelled.")
        try:
            done = database_restore(connection=connections[options["database"]],
                                    path=options["file"], run=not options["print_only"])
        except TransferError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(done)
