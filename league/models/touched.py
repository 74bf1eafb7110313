"""`updated`: when a row last changed, kept by the database itself.

A trigger (migration league 0007) stamps the row on every insert and update, queryset
updates and partial saves included, so nothing that writes can forget it. The API's
`updated_since` filters on it.
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def updated_field() -> models.DateTimeField:
    return models.DateTimeField(_("updated"), default=timezone.now, editable=False, db_index=True)
