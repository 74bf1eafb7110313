"""Playing again after a finished table: the same rules and seats, or the same queue."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.models import QueueEntry, Table

from . import matchmaking, tables
from .errors import TableError


def play_again(table: Table, user: AbstractBaseUser) -> Table | None:
    """Where a player of the finished `table` plays next: None while queued.

    A private table's first player to ask opens a new table under the same rules and sits
    in the same seat, with bots where bots sat; the others who ask are sent to that table
    and sit in their seats too. A matchmade table's player joins the same queue, of the
    same rule set (a duo with the same partner, if a person).
    """
    if table.competes:
        raise TableError("not_casual")
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        seats = list(table.seats.all())
        mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
        if mine is None:
            raise TableError("not_seated")
        if table.status != Table.Status.FINISHED:
            raise TableError("not_finished")
        if table.kind != Table.Kind.PRIVATE:
            rules = matchmaking.queue_of(table) or matchmaking.DEFAULT_RULES
            partner = seats[(mine.number + 2) % len(seats)]
            if table.kind == QueueEntry.Kind.DUO and partner.user is not None:
                return matchmaking.join_queue(user, table.kind, partner.user, rules)
            return matchmaking.join_queue(user, table.kind, rules=rules)
        code = (table.match or {}).get("again")
        new = Table.objects.filter(code=code).first() if code else None
        if new is None:
            new = tables.create_table(
                host=user, rules=table.rules, next_hand_seconds=table.next_hand_seconds
            )
            table.match = {**(table.match or {}), "again": new.code}
            table.save(update_fields=["match"])
    if new.status != Table.Status.WAITING or new.seats.filter(user=user).exists():
        return new
    free = [s.number for s in new.seats.all() if not s.taken]
    if free:
        tables.sit(new.pk, user, mine.number if mine.number in free else free[0])
    if new.host_id == user.pk:
        for seat in seats:
            if seat.user_id is None and seat.bot:
                tables.add_bot(new.pk, user, seat.number, seat.bot_level)
    return new
