from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone

from campaigns.models import Campaign
from config.demo import DEMO_PASSWORD, GM, PLAYERS, load_demo


class Command(BaseCommand):
    help = ("Load the demo campaigns when the database has no campaign yet; on a database whose "
            "demo came before the homebrew or Eclipse Phase system, add their demos.")

    def handle(self, *args, **options):
        campaign = load_demo()
        if campaign is None:
            added = [c for c in (self._homebrew_demo_added(), self._eclipse_demo_added()) if c]
            self.stdout.write("".join(f"Demo campaign {c.name!r} added. " for c in added).strip()
                              if added else "Campaigns exist already: demo not loaded.")
            return
        names = ", ".join(repr(c.name) for c in Campaign.objects.order_by("pk"))
        self.stdout.write(self.style.SUCCESS(f"Demo campaigns loaded: {names}."))
        logins = ", ".join([GM] + [p[0] for p in PLAYERS])
        self.stdout.write(f"Demo logins ({logins}), password: {DEMO_PASSWORD}")

    def _homebrew_demo_added(self):
        """The homebrew demo for a database made by an earlier load_demo (its users there, no
        homebrew demo yet), else None."""
        from homebrew.demo import DEMO_CAMPAIGN, PARTY, load_homebrew_demo

        users = {u.username: u for u in get_user_model().objects.filter(
            username__in=[GM, *(p[0] for p in PARTY)])}
        if len(users) != 1 + len(PARTY) or Campaign.objects.filter(name=DEMO_CAMPAIGN).exists():
            return None
        return load_homebrew_demo(gm=users[GM], players=users, now=timezone.now())

    def _eclipse_demo_added(self):
        """The Eclipse Phase demo for a database made by an earlier load_demo (its users there,
        no Eclipse Phase demo yet), else None."""
        from eclipse.demo import DEMO_CAMPAIGN, load_eclipse_demo

        names = [GM, *(p[0] for p in PLAYERS)]
        users = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
        if len(users) != len(names) or Campaign.objects.filter(name=DEMO_CAMPAIGN).exists():
            return None
        return load_eclipse_demo(gm=users[GM], players=users, now=timezone.now())
