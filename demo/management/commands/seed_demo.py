from django.core.management.base import BaseCommand

from demo import club as demo


class Command(BaseCommand):
    help = "Load the demo club, players and events (once; a second run changes nothing)."

    def handle(self, *args, **options) -> None:
        created = demo.run()
        if created:
            self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        else:
            self.stdout.write("Demo data already present.")
