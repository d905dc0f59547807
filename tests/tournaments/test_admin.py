"""The admin lists and opens every tournaments model (the director's fallback when a screen is down)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import entries_of
from tournaments import services
from tournaments.models import AuditEntry, BlindStructure, Entry, Level, Player, Tournament

pytestmark = pytest.mark.django_db


def test_admin_lists_and_opens_every_model(client, running):
    tournament = running(3)
    services.set_chips(entries_of(tournament)[0], 100, reason="recount")
    admin = get_user_model().objects.create_superuser("root", "root@example.com", None)
    client.force_login(admin)
    for model in (Tournament, BlindStructure, Level, Player, Entry, AuditEntry):
        meta = model._meta
        assert client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")).status_code == 200
        obj = model.objects.first()
        assert (
            client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])).status_code
            == 200
        )


def test_audit_log_cannot_be_edited_or_deleted_in_the_admin(client, running):
    running(2)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", None)
    client.force_login(admin)
    entry = AuditEntry.objects.first()
    response = client.post(reverse("admin:tournaments_auditentry_delete", args=[entry.pk]), {"post": "yes"})
    assert response.status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk).exists()
