"""Devices, pairing codes, announcements and floor calls move to the screens app: the models leave
this app's state only; their tables stay, under the same names, and become the screens app's."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_screen_versions_on_rows'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='device',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='device',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='device',
                    name='tournament',
                ),
                migrations.RemoveField(
                    model_name='device',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='pairingcode',
                    name='device',
                ),
                migrations.RemoveField(
                    model_name='floorcall',
                    name='answered_by',
                ),
                migrations.RemoveField(
                    model_name='floorcall',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='floorcall',
                    name='tournament',
                ),
                migrations.RemoveField(
                    model_name='pairingcode',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='pairingcode',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='pairingcode',
                    name='tournament',
                ),
                migrations.DeleteModel(
                    name='Announcement',
                ),
                migrations.DeleteModel(
                    name='Device',
                ),
                migrations.DeleteModel(
                    name='FloorCall',
                ),
                migrations.DeleteModel(
                    name='PairingCode',
                ),
    ],
            database_operations=[],
        ),
    ]
