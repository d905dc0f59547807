"""config.json_text: the JSON text of every snapshot and tablet answer (orjson) says what Python's
json with Django's encoder said, so no screen reads a different value."""

import datetime
import json
import math
import uuid
from decimal import Decimal

import numpy as np
import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from rest_framework.utils.encoders import JSONEncoder

from config import json_text
from tournaments.models import Tournament

ENDS_AT = datetime.datetime(2026, 12, 5, 21, 40, 7, 123456, tzinfo=datetime.UTC)


def test_a_snapshot_reads_back_as_python_json_wrote_it():
    snapshot = {
        "kind": "clock",
        "version": 12,
        # The clock screens count down from these: milliseconds and Z, as Django's encoder writes them.
        "data": {
            "level": {"ends_at": ENDS_AT, "paused_for": datetime.timedelta(seconds=95)},
            "day": datetime.date(2026, 12, 5),
            "prize_pool": Decimal("12345.50"),
            "status": Tournament.Status.RUNNING,  # a str enum: its value
            "seats": {3: "Seat 3"},  # int keys become strings, as with json
            "name": "Main Event — Día 1A, Ελλάδα",
            "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
            "equity": [np.float64(0.25), 0.75],
            "note": _("Break"),
        },
    }
    text = json_text.dumps(snapshot)
    assert json.loads(text) == json.loads(json.dumps(snapshot, cls=DjangoJSONEncoder))
    assert '"ends_at":"2026-12-05T21:40:07.123Z"' in text
    assert "Día 1A, Ελλάδα" in text  # UTF-8, not \u escapes: smaller, the same string once parsed


def test_numpy_numbers_are_numbers():
    # json refused a numpy integer (an equity calculation's count): the snapshot would not be sent.
    assert json.loads(json_text.dumps({"runs": np.int64(3), "share": np.float32(0.5)})) == {
        "runs": 3,
        "share": 0.5,
    }


def test_a_nan_is_null_which_browsers_parse():
    # json wrote NaN, which JSON.parse refuses: the whole snapshot would have been dropped.
    assert json.loads(json_text.dumps({"share": math.nan})) == {"share": None}


def test_lazy_texts_are_made_in_the_language_active_at_the_call():
    with translation.override("fr"):
        text = json_text.dumps({"detail": _("Break")}, JSONEncoder().default)
    assert json.loads(text) == {"detail": "Pause"}


def test_what_json_cannot_write_is_refused_not_written():
    with pytest.raises(TypeError):
        json_text.dumps({"oops": object()})


def test_a_jsonb_parameter_is_the_value_as_json():
    param = json_text.jsonb({"state": {1: "x"}, "at": [1, 2]})
    assert json.loads(param.dumps(param.obj)) == {"state": {"1": "x"}, "at": [1, 2]}
