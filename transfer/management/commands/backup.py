from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from transfer.backup import database_backup
from transfer.errors import TransferError


class Command(BaseCommand):
    help = ("Back the whole database up to FILE: SQLite through its online backup API (safe while "
            "the site runs); PostgreSQL through pg_dump --format=custom (docs/export.md).")

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--database", default="default")
        parser.add_argument("--print-only", action="store_true",
                            help="PostgreSQL: print the pg_dump command instead of running it.")

    def handle(self, *args, **options):
        try:
            done = database_backup(connection=connections[options["database"]],
                                   path=options["file"], run=not options["print_only"])
        except TransferError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(done)
