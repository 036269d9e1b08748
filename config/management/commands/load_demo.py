from django.core.management.base import BaseCommand

from config.demo import DEMO_PASSWORD, GM, PLAYERS, load_demo


class Command(BaseCommand):
    help = "Load the demo campaign when the database has no campaign yet."

    def handle(self, *args, **options):
        campaign = load_demo()
        if campaign is None:
            self.stdout.write("Campaigns exist already: demo not loaded.")
            return
        self.stdout.write(self.style.SUCCESS(f"Demo campaign {campaign.name!r} loaded."))
        logins = ", ".join([GM] + [p[0] for p in PLAYERS])
        self.stdout.write(f"Demo logins ({logins}), password: {DEMO_PASSWORD}")
