"""Text a person typed, made safe to store and to show (pure Python: no framework, no app).

- ``check_line``: what is wrong with a one-line text (a name, a label, a reason): control characters
  (newlines, tabs, escapes), bidirectional embeddings, overrides and isolates (U+202A-202E,
  U+2066-2069, and the marks U+200E, U+200F, U+061C), zero-width and other invisible formatting
  characters (U+200B-200D, U+2060-2064, U+FEFF, U+00AD ...): exactly the class ``UNSAFE_CLASS``.
- ``clean_name``: a player's name of 1 to 64 characters free of the characters above, NFC-normalised,
  trimmed and inner spaces collapsed, or ``TextProblem`` naming the problem.
- ``name_key``: the key under which two spellings are the same player: case, accents and spacing
  ignored ("ana lima", "Ana  Lima" and "Ána Lima" are one key).
- ``escape_line``: any stored string made safe to interpolate into one line of a text file (the hand
  histories): such characters are written as ``\\uXXXX`` escapes, so no stored string can start a
  line of its own (or reorder what follows it on screen).
"""

from __future__ import annotations

import re
import unicodedata

NAME_MAX_LENGTH = 64

BIDI_CONTROLS = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f", "\u061c"]
)
ZERO_WIDTH = frozenset(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e", "\u00ad", "\u034f"])
# What a one-line text must not hold, as one regular-expression class: C0 and C1 controls and DEL, the
# soft hyphen, the combining grapheme joiner, the Arabic letter mark, the Mongolian vowel separator,
# zero-width spaces and joiners, LRM/RLM, line and paragraph separators, bidi embeddings, overrides
# and isolates, the word joiner and the other invisible operators, the byte-order mark and the
# interlinear annotation marks. The same class is the API schema's ``pattern`` (so the schema says
# exactly what is refused); it is written with escapes that Python and ECMA regexes read alike.
UNSAFE_CLASS = (
    r"\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    r"\ufeff\ufff9-\ufffb"
)
LINE_PATTERN = rf"^[^{UNSAFE_CLASS}]*$"
# A line that is not empty (the schema of a text that may be blank adds the empty one itself).
NONEMPTY_LINE_PATTERN = rf"^[^{UNSAFE_CLASS}]+$"
# A line that is not blank: at least one character that is neither a space nor unsafe.
FILLED_LINE_PATTERN = rf"^[^{UNSAFE_CLASS}]*[^\s{UNSAFE_CLASS}][^{UNSAFE_CLASS}]*$"
_UNSAFE = re.compile(f"[{UNSAFE_CLASS}]")
# For escaping output: every control, format, surrogate, private-use or unassigned code point, and
# the line and paragraph separators.
_UNSAFE_CATEGORIES = frozenset(["Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"])
_SPACES = re.compile(r"\s+")


class TextProblem(ValueError):
    """What is wrong with a text: ``code`` (stable), ``params`` (for a translated message)."""

    def __init__(self, code: str, message: str, params: dict | None = None):
        super().__init__(message)
        self.code = code
        self.params = dict(params or {})


def _codepoint(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def unsafe_character(text: str) -> tuple[str, str] | None:
    """The first character that must not be in a one-line text, and its kind, or None."""
    found = _UNSAFE.search(text)
    if found is None:
        return None
    ch = found.group()
    if ch in BIDI_CONTROLS:
        return ch, "bidi"
    if unicodedata.category(ch) == "Cc":
        return ch, "control"
    return ch, "invisible"


def check_line(text: str) -> None:
    """Raise ``TextProblem`` when ``text`` holds a character that must not be in a one-line text."""
    found = unsafe_character(text)
    if found is None:
        return
    ch, kind = found
    messages = {
        "control": "control characters (such as a new line or a tab) are not allowed",
        "bidi": "bidirectional formatting characters (which reorder text on screen) are not allowed",
        "invisible": "invisible characters (such as a zero-width space) are not allowed",
    }
    raise TextProblem(kind, f"{messages[kind]}: {_codepoint(ch)}", {"character": _codepoint(ch)})


def clean_line(text: str, *, max_length: int | None = None) -> str:
    """A one-line text NFC-normalised and trimmed; ``TextProblem`` for an unsafe character or a text
    longer than ``max_length`` as sent."""
    check_line(text)
    if max_length is not None and len(text) > max_length:
        raise TextProblem(
            "too_long",
            f"at most {max_length} characters (this one has {len(text)})",
            {"max_length": max_length, "length": len(text)},
        )
    return unicodedata.normalize("NFC", text).strip()


def clean_name(name: str) -> str:
    """A player's name as stored: at most 64 characters as typed, without unsafe characters; then NFC,
    trimmed and inner runs of spaces made one, and not blank."""
    if len(name) > NAME_MAX_LENGTH:
        raise TextProblem(
            "too_long",
            f"a name has at most {NAME_MAX_LENGTH} characters (this one has {len(name)})",
            {"max_length": NAME_MAX_LENGTH, "length": len(name)},
        )
    text = _SPACES.sub(" ", clean_line(name))
    if not text:
        raise TextProblem("blank", "give the player's name")
    return text


def name_key(name: str) -> str:
    """Case, accents and spacing ignored: the key that makes two spellings one player."""
    decomposed = unicodedata.normalize("NFKD", name or "")
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", bare.casefold()).strip()


def escape_line(text: object) -> str:
    """``text`` as one safe line: every unsafe character written as a ``\\uXXXX`` escape."""
    out = []
    for ch in str(text):
        if (
            ch in BIDI_CONTROLS
            or ch in ZERO_WIDTH
            or unicodedata.category(ch) in _UNSAFE_CATEGORIES
            or ch in "\u2028\u2029\x85"
        ):
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        else:
            out.append(ch)
    return "".join(out)
