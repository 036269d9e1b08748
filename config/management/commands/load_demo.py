from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone

from campaigns.models import Campaign
from config.demo import (DEMO_PASSWORD, GM, PLAYERS, demo_emails_verified, load_demo,
                         load_system_demos)


class Command(BaseCommand):
    help = ("Load the demo campaigns when the database has no campaign yet; on a database whose "
            "demo came before a rule system was added, add that system's demo.")

    def handle(self, *args, **options):
        campaign = load_demo()
        if campaign is None:
            added = self._system_demos_added()
            self.stdout.write("".join(f"Demo campaign {c.name!r} added. " for c in added).strip()
                              if added else "Campaigns exist already: demo not loaded.")
            return
        names = ", ".join(repr(c.name) for c in Campaign.objects.order_by("pk"))
        self.stdout.write(self.style.SUCCESS(f"Demo campaigns loaded: {names}."))
        logins = ", ".join([GM] + [p[0] for p in PLAYERS])
        self.stdout.write(f"Demo logins ({logins}), password: {DEMO_PASSWORD}")

    def _system_demos_added(self) -> list[Campaign]:
        """The demos of the systems a database made by an earlier load_demo lacks (its demo
        users there), else none."""
        names = [GM, *(p[0] for p in PLAYERS)]
        users = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
        if len(users) != len(names):
            return []
        demo_emails_verified(list(users.values()))  # a demo loaded before allauth's addresses
        return load_system_demos(gm=users[GM], players=users, now=timezone.now())
