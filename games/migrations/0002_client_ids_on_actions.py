"""Client message ids move from the Reply table onto the actions they produced."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def replies_to_actions(apps, schema_editor):
    """Each stored ack names its action by version: the action keeps the user and the id."""
    Action = apps.get_model("games", "Action")
    Reply = apps.get_model("games", "Reply")
    for reply in Reply.objects.iterator():
        version = reply.answer.get("version") if isinstance(reply.answer, dict) else None
        Action.objects.filter(table_id=reply.table_id, version=version, client_id="").update(
            user_id=reply.user_id, client_id=reply.client_id
        )


def actions_to_replies(apps, schema_editor):
    Action = apps.get_model("games", "Action")
    Reply = apps.get_model("games", "Reply")
    Reply.objects.bulk_create(
        Reply(
            table_id=action.table_id, user_id=action.user_id, client_id=action.client_id,
            answer={"type": "ack", "id": action.client_id, "version": action.version},
        )  # fmt: skip
        for action in Action.objects.exclude(client_id="").exclude(user=None).iterator()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_live_tables"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="action",
            name="client_id",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="action",
            name="user",
            field=models.ForeignKey(
                blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                related_name="+", to=settings.AUTH_USER_MODEL,
            ),  # fmt: skip
        ),
        migrations.RunPython(replies_to_actions, actions_to_replies),
        migrations.DeleteModel(name="Reply"),
        migrations.AddConstraint(
            model_name="action",
            constraint=models.UniqueConstraint(
                condition=models.Q(("client_id", ""), _negated=True),
                fields=("table", "user", "client_id"),
                name="unique_action_client_id",
            ),
        ),
    ]
