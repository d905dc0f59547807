"""Screen versions move from the ScreenVersion table onto the rows the screens show.

Each counter is carried over (a table's becomes at least what it was), so a screen that reconnects
after the upgrade never sees a version lower than the one it shows and keeps updating."""

from django.db import migrations, models


def carry_versions_over(apps, schema_editor):
    ScreenVersion = apps.get_model("tournaments", "ScreenVersion")
    Tournament = apps.get_model("tournaments", "Tournament")
    Table = apps.get_model("tables", "Table")
    for group, version in ScreenVersion.objects.values_list("group", "version"):
        kind, _dash, pk = group.partition("-")
        if not pk.isdigit():
            continue
        if kind == "tournament":
            Tournament.objects.filter(pk=int(pk)).update(version=version)
        elif kind == "table":
            Table.objects.filter(pk=int(pk), version__lt=version).update(version=version)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_paused_before_hand_for_hand"),
        ("tables", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="version",
            field=models.PositiveBigIntegerField(default=0, editable=False, verbose_name="screen version"),
        ),
        migrations.RunPython(carry_versions_over, migrations.RunPython.noop),
        migrations.DeleteModel(name="ScreenVersion"),
    ]
