"""The seed now lives in ``HandSecret`` (0002). Its own migration, so that on PostgreSQL the table is
altered in another transaction than the one that wrote the rows pointing at it."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("dealing", "0002_hand_secrets"),
    ]

    operations = [
        migrations.RemoveField(model_name="hand", name="seed"),
    ]
