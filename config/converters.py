"""URL path converters: ``<id:name>`` is a database id, a whole number from 0 to 2**63 - 1.

Django's ``<int:...>`` takes any number of digits, and a 30-digit id then fails in the database
(SQLite: "Python int too large", PostgreSQL: "out of range"), a 500. ``<id:...>`` does not match a
number beyond the 64-bit range, so such a URL is a plain 404. Every URL pattern and WebSocket route
of the project uses it (tests/security/test_limits.py walks them all). ``whole_number`` is the same
rule for a query parameter (400 when it is not one).
"""

from django.urls import register_converter

MAX_ID = 2**63 - 1  # the largest value of a 64-bit signed integer column (BigAutoField)


def whole_number(text: str | None, *, minimum: int = 0) -> int | None:
    """``text`` as an int from ``minimum`` to MAX_ID, or None when it is not a plain (ASCII) whole
    number in that range."""
    if text is None:
        return None
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 19:
        return None
    value = int(text)
    return value if minimum <= value <= MAX_ID else None


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("beyond the 64-bit range")  # the resolver treats this as no match: 404
        return number

    def to_url(self, value) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
