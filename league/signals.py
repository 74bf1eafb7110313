from django.dispatch import Signal

# Sent after the transaction that confirmed a result commits: a proposal confirmed by the
# second person, a dispute settled, a forfeit awarded (`result.forfeit`), or a correction
# (`correction=True`; `result.corrects` is the result it replaced). Arguments: sender=Result,
# match, result, correction. Apps subscribe in one style: `@receiver(result_confirmed,
# dispatch_uid="app.what")` in the app's `receivers.py`, which its AppConfig.ready() imports
# (tournaments: brackets move on; ratings: the pool is recalculated; api: webhooks).
result_confirmed = Signal()

# Sent when what an event's standings show changes (a result, a correction, a withdrawal, a
# round, the event's settings), at once and again after the transaction commits (a reader
# in between may have cached the old tables). Arguments: sender=Event, event.
standings_changed = Signal()

# Sent inside the transaction that withdrew or disqualified an entry, once its matches still
# to play are forfeited: the play app closes the entry's tables in play. Arguments:
# sender=Entry, entry.
entry_left = Signal()
