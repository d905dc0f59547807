# Loads the shipped blind-structure templates (tournaments/structures.py).

from django.db import migrations


def install(apps, schema_editor):
    from tournaments.structures import install_templates

    install_templates(
        apps.get_model("tournaments", "BlindStructure"), apps.get_model("tournaments", "Level"), with_chips=False
    )


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0002_blindstructure_starting_stack_entry_bust_hand_label_and_more"),
    ]

    operations = [
        migrations.RunPython(install, migrations.RunPython.noop),
    ]
