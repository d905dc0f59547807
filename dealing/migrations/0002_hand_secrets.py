"""Secrets at rest: a hand's seed, its full view and the secret parts of its dealt events (hole
cards, burns) move from ``Hand`` and ``HandEvent`` to ``HandSecret`` (docs/dealing.md).

Forward: each hand gets its ``HandSecret`` (seed, full view); ``Hand.state`` keeps the public view
only; every hole event keeps its seat with its cards blanked, every board event loses its burn, and
the events as dealt go to ``HandSecret.events``. Backward puts everything back where it was.
"""

from django.db import migrations, models
import django.db.models.deletion

KEPT_WHEN_HIDDEN = ("type", "seat")


def _blank(payload):
    """(stored, dealt or None): as ``dealing.eventlog.blank`` at the time of this migration."""
    kind = payload.get("type") if isinstance(payload, dict) else None
    if kind == "hole":
        return {k: (v if k in KEPT_WHEN_HIDDEN else None) for k, v in payload.items()}, payload
    if kind == "board" and payload.get("burn") is not None:
        return {**payload, "burn": None}, payload
    return payload, None


def forward(apps, schema_editor):
    Hand = apps.get_model("dealing", "Hand")
    HandEvent = apps.get_model("dealing", "HandEvent")
    HandSecret = apps.get_model("dealing", "HandSecret")
    for hand in Hand.objects.all().iterator():
        state = hand.state if isinstance(hand.state, dict) else {}
        full, public = state.get("full"), state.get("public")
        dealt = {}
        for event in HandEvent.objects.filter(hand_id=hand.pk).order_by("seq"):
            stored, secret = _blank(event.payload)
            if secret is not None:
                dealt[str(event.seq)] = secret
                # Historical models have a plain manager: the log's append-only guard is not here.
                HandEvent.objects.filter(pk=event.pk).update(payload=stored)
        HandSecret.objects.create(
            hand_id=hand.pk,
            seed=hand.seed,
            state=full if isinstance(full, dict) else None,
            state_seq=hand.state_seq if isinstance(full, dict) else -1,
            events=dealt,
        )
        Hand.objects.filter(pk=hand.pk).update(
            state=public if isinstance(public, dict) else None,
            state_seq=hand.state_seq if isinstance(public, dict) else -1,
        )


def backward(apps, schema_editor):
    Hand = apps.get_model("dealing", "Hand")
    HandEvent = apps.get_model("dealing", "HandEvent")
    HandSecret = apps.get_model("dealing", "HandSecret")
    for secret in HandSecret.objects.all().iterator():
        for seq, payload in (secret.events or {}).items():
            HandEvent.objects.filter(hand_id=secret.hand_id, seq=int(seq)).update(payload=payload)
        hand = Hand.objects.get(pk=secret.hand_id)
        fresh = isinstance(hand.state, dict) and isinstance(secret.state, dict)
        fresh = fresh and secret.state_seq == hand.state_seq
        Hand.objects.filter(pk=hand.pk).update(
            seed=secret.seed,
            state={"full": secret.state, "public": hand.state} if fresh else None,
            state_seq=hand.state_seq if fresh else -1,
        )


class Migration(migrations.Migration):

    dependencies = [
        ("dealing", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="HandSecret",
            fields=[
                (
                    "hand",
                    models.OneToOneField(
                        editable=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="secret",
                        serialize=False,
                        to="dealing.hand",
                    ),
                ),
                ("seed", models.BinaryField(blank=True, editable=False, null=True, verbose_name="seed")),
                ("state", models.JSONField(blank=True, editable=False, null=True, verbose_name="full view")),
                ("state_seq", models.IntegerField(default=-1, editable=False, verbose_name="full view sequence")),
                ("events", models.JSONField(default=dict, editable=False, verbose_name="secret events")),
            ],
            options={
                "verbose_name": "hand secret",
                "verbose_name_plural": "hand secrets",
                "default_permissions": (),
            },
        ),
        migrations.RunPython(forward, backward),
    ]
