"""The screens app takes over the device, pairing-code, announcement and floor-call tables that the
tournaments app made (``db_table`` keeps their names): state only, the data stays where it is."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0009_devices_move_to_screens'),
        ('tables', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Announcement',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('text', models.CharField(max_length=300, verbose_name='text')),
                        ('active', models.BooleanField(default=True, verbose_name='shown')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='announcements', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'announcement',
                        'verbose_name_plural': 'announcements',
                        'db_table': 'tournaments_announcement',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='Device',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('clock', 'Clock screen'), ('tablet', 'Dealer tablet')], max_length=10, verbose_name='kind')),
                        ('label', models.CharField(max_length=100, verbose_name='label')),
                        ('token_hash', models.CharField(editable=False, max_length=64, unique=True)),
                        ('is_demo', models.BooleanField(default=False, verbose_name='demo device')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='paired at')),
                        ('last_seen_at', models.DateTimeField(blank=True, null=True, verbose_name='last seen')),
                        ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked at')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='devices', to='tables.table')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='devices', to='tournaments.tournament')),
                        ('user', models.OneToOneField(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='device', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'device',
                        'verbose_name_plural': 'devices',
                        'db_table': 'tournaments_device',
                        'ordering': ['tournament', 'kind', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='FloorCall',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('device_label', models.CharField(blank=True, max_length=100, verbose_name='device')),
                        ('called_at', models.DateTimeField(auto_now_add=True, verbose_name='called at')),
                        ('answered_at', models.DateTimeField(blank=True, null=True, verbose_name='answered at')),
                        ('answered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='floor_calls', to='tables.table')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='floor_calls', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'floor call',
                        'verbose_name_plural': 'floor calls',
                        'db_table': 'tournaments_floorcall',
                        'ordering': ['-called_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='PairingCode',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('clock', 'Clock screen'), ('tablet', 'Dealer tablet')], max_length=10, verbose_name='kind')),
                        ('code_hash', models.CharField(editable=False, max_length=64, unique=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('expires_at', models.DateTimeField(verbose_name='expires at')),
                        ('used_at', models.DateTimeField(blank=True, null=True, verbose_name='used at')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('device', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='pairing_code', to='screens.device')),
                        ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='pairing_codes', to='tables.table')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pairing_codes', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'pairing code',
                        'verbose_name_plural': 'pairing codes',
                        'db_table': 'tournaments_pairingcode',
                    },
                ),
    ],
            database_operations=[],
        ),
    ]
