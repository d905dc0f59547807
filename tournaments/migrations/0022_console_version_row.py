"""The console's version moves from a column of the tournament to a row of its own
(``ConsoleVersion``): a dealer's run-out bumped it while holding its table, and balancing holds the
tournament before its tables, so the two deadlocked. The count is carried over, so every console's
version (the tournament's plus this) stays what it was and only grows."""

import django.db.models.deletion
from django.db import migrations, models


def carry_over(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    ConsoleVersion = apps.get_model("tournaments", "ConsoleVersion")
    ConsoleVersion.objects.bulk_create(
        ConsoleVersion(tournament_id=pk, version=version)
        for pk, version in Tournament.objects.filter(console_version__gt=0).values_list(
            "pk", "console_version"
        )
    )


def carry_back(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    ConsoleVersion = apps.get_model("tournaments", "ConsoleVersion")
    for row in ConsoleVersion.objects.all():
        Tournament.objects.filter(pk=row.tournament_id).update(console_version=row.version)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0021_console_version"),
    ]

    operations = [
        migrations.CreateModel(
            name="ConsoleVersion",
            fields=[
                (
                    "tournament",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="console_counter",
                        serialize=False,
                        to="tournaments.tournament",
                    ),
                ),
                ("version", models.PositiveBigIntegerField(default=0, verbose_name="console version")),
            ],
            options={
                "verbose_name": "console version",
                "verbose_name_plural": "console versions",
            },
        ),
        migrations.RunPython(carry_over, carry_back),
        migrations.RemoveField(
            model_name="tournament",
            name="console_version",
        ),
    ]
