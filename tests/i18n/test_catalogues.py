"""The translation catalogues (config/locale, docs/translations.md): one for every configured language,
complete, without fuzzy entries, with the placeholders of the English text, and in step with the code.

The .po files are read by the small parser below (no package needed); the code's messages are extracted
by Django's makemessages into a temporary folder (GNU gettext's xgettext, which make setup installs).
"""

from __future__ import annotations

import contextlib
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

LOCALE_DIR = Path(settings.BASE_DIR) / "config" / "locale"
# The language the msgids are written in needs no catalogue.
SOURCE_LANGUAGE = "en"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != SOURCE_LANGUAGE]
# How many plural forms each language has (a language added to LANGUAGES is added here too).
NPLURALS = {"es": 2, "it": 2, "ru": 3, "el": 2, "fr": 2}
# What makemessages leaves out (as in docs/translations.md).
# config/locale itself is left out so that nothing is written there.
IGNORE = [".venv", "tests", "config/locale"]


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    line: int = 0

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)


def _unquote(text: str) -> str:
    text = text.strip()
    assert text.startswith('"') and text.endswith('"'), text
    return re.sub(
        r"\\(.)", lambda m: {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(m[1], "\\" + m[1]), text[1:-1]
    )


def parse_po(path: Path) -> list[Entry]:
    """The entries of a .po file, the header (msgid "") first."""
    entries: list[Entry] = []
    current = Entry()
    target: tuple[str, int | None] | None = None
    started = False

    def finish():
        nonlocal current, started, target
        if started:
            entries.append(current)
        current, started, target = Entry(), False, None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if line.startswith("|"):  # an obsolete entry's previous msgid
                continue
        if not line:
            finish()
            continue
        if line.startswith("#,") and not obsolete:
            if started and target and target[0] == "msgstr":
                finish()
            current.flags |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            continue
        if line.startswith("#"):
            if started and target and target[0] == "msgstr":
                finish()
            continue
        keyword, _, rest = line.partition(" ")
        if keyword.startswith('"'):
            assert target is not None, f"{path}:{number}: a string continues nothing"
            rest, keyword = line, None
        elif keyword in ("msgctxt", "msgid") and started and target and target[0] == "msgstr":
            finish()
        if keyword is not None:
            if not started:
                current.line, current.obsolete = number, obsolete
            started = True
            plural = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
            if plural:
                target = ("msgstr", int(plural[1]))
            elif keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
                target = (keyword, 0 if keyword == "msgstr" else None)
            else:
                raise AssertionError(f"{path}:{number}: unknown line {raw!r}")
        text = _unquote(rest)
        name, index = target
        if name == "msgstr":
            current.msgstr[index] = current.msgstr.get(index, "") + text
        else:
            setattr(current, name, (getattr(current, name) or "") + text)
    finish()
    return entries


def catalogue(code: str, domain: str = "django") -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.po"


def messages(code: str) -> list[Entry]:
    """A language's live messages: no header, no obsolete (#~) entries."""
    return [e for e in parse_po(catalogue(code)) if e.msgid and not e.obsolete]


def header(code: str) -> tuple[Entry, dict[str, str]]:
    first = parse_po(catalogue(code))[0]
    assert first.msgid == "", f"{catalogue(code)} has no header"
    fields = dict(line.split(": ", 1) for line in first.msgstr.get(0, "").splitlines() if ": " in line)
    return first, fields


# %(name)s, %s, %d, %.2f ... but not %% (a literal percent sign).
PERCENT = re.compile(
    r"%(?:\((?P<name>[^)]*)\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa%]"
)
BRACE = re.compile(r"(?<!\{)\{(?!\{)([^{}]*)\}")


def percent_placeholders(text: str) -> tuple[list[str], list[str]]:
    """Named placeholders (any order) and positional ones (in order), each with its conversion."""
    named, positional = [], []
    for match in PERCENT.finditer(text):
        spec = match[0]
        if spec == "%%":
            continue
        (named if match["name"] is not None else positional).append(spec)
    return sorted(named), positional


def brace_placeholders(text: str) -> list[str]:
    return sorted(BRACE.findall(text))


def _describe(entry: Entry) -> str:
    return f"line {entry.line}: {entry.msgid!r}"


def test_a_catalogue_for_every_configured_language():
    missing = [code for code in TRANSLATED if not catalogue(code).is_file()]
    assert not missing, (
        f"no catalogue for {missing}: run  python manage.py makemessages -l CODE  (docs/translations.md)"
    )
    configured = {code for code, _name in settings.LANGUAGES}
    stray = sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir() and p.name not in configured)
    assert not stray, f"catalogues for languages not in settings.LANGUAGES: {stray}"
    assert settings.LOCALE_PATHS == [LOCALE_DIR]


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_header_names_the_language_and_its_plural_forms(code):
    entry, fields = header(code)
    assert "fuzzy" not in entry.flags, f"{catalogue(code)}: the header is marked fuzzy"
    assert fields.get("Language") == code
    assert "charset=UTF-8" in fields.get("Content-Type", "")
    assert code in NPLURALS, f"add {code}'s number of plural forms to NPLURALS"
    nplurals = re.search(r"nplurals\s*=\s*(\d+)", fields.get("Plural-Forms", ""))
    assert nplurals and int(nplurals[1]) == NPLURALS[code], fields.get("Plural-Forms")


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(code):
    problems = []
    for entry in messages(code):
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy, {_describe(entry)}")
        forms = NPLURALS[code] if entry.msgid_plural is not None else 1
        if sorted(entry.msgstr) != list(range(forms)):
            problems.append(f"{len(entry.msgstr)} forms instead of {forms}, {_describe(entry)}")
        if any(not entry.msgstr.get(i, "").strip() for i in range(forms)):
            problems.append(f"untranslated, {_describe(entry)}")
    assert not problems, f"{catalogue(code)}:\n" + "\n".join(problems)


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders(code):
    problems = []
    for entry in messages(code):
        sources = [entry.msgid] + ([entry.msgid_plural] if entry.msgid_plural is not None else [])
        for index, text in sorted(entry.msgstr.items()):
            # A plural form may leave the number out (Russian's "one" form for 21, 31 ...) only
            # when it has a name; the names themselves must all be the English ones.
            source = sources[min(index, len(sources) - 1)]
            if "python-format" in entry.flags or PERCENT.search(text.replace("%%", "")):
                want_named, want_positional = percent_placeholders(source)
                got_named, got_positional = percent_placeholders(text)
                if got_named != want_named or got_positional != want_positional:
                    problems.append(
                        f"{_describe(entry)} has {got_named + got_positional}, "
                        f"the English {want_named + want_positional}"
                    )
            braces = "python-brace-format" in entry.flags
            if braces and brace_placeholders(text) != brace_placeholders(source):
                problems.append(
                    f"{_describe(entry)} has {brace_placeholders(text)}, "
                    f"the English {brace_placeholders(source)}"
                )
    assert not problems, f"{catalogue(code)}:\n" + "\n".join(problems)


def test_no_javascript_catalogue_is_needed():
    """The scripts get their labels translated from the server (json_script): a gettext() call in a
    script would need a djangojs catalogue for every language, and this test to check it."""
    static = Path(settings.BASE_DIR) / "static"
    calls = [
        str(path.relative_to(static))
        for path in static.rglob("*.js")
        if re.search(r"\b(n?gettext|pgettext|interpolate)\s*\(", path.read_text(encoding="utf-8"))
    ]
    if calls:
        missing = [code for code in TRANSLATED if not catalogue(code, "djangojs").is_file()]
        assert not missing, f"{calls} call gettext: add djangojs catalogues for {missing}"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[tuple[str | None, str]]:
    """Every message in the code, extracted as makemessages does, into a temporary folder."""
    if not (shutil.which("xgettext") and shutil.which("msguniq")):
        pytest.fail("GNU gettext is missing: make setup installs it (apt-get install gettext)")
    out = tmp_path_factory.mktemp("locale")
    with override_settings(LOCALE_PATHS=[out]), contextlib.chdir(settings.BASE_DIR):
        call_command("makemessages", locale=["xx"], ignore_patterns=IGNORE, keep_pot=True, verbosity=0)
    return {e.key for e in parse_po(out / "django.pot") if e.msgid}


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalogue_has_every_message_of_the_code_and_no_other(code, extracted):
    have = {e.key for e in messages(code)}
    missing, stale = sorted(extracted - have, key=str), sorted(have - extracted, key=str)
    hint = "run the makemessages command of docs/translations.md, then translate"
    assert not missing, f"{catalogue(code)} lacks {len(missing)} messages ({hint}): {missing[:10]}"
    assert not stale, (
        f"{catalogue(code)} has {len(stale)} messages the code no longer has ({hint}): {stale[:10]}"
    )


# --- The compiled catalogues in use -------------------------------------------------------------------


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_is_there_and_up_to_date(code):
    mo = catalogue(code).with_suffix(".mo")
    hint = "run  make setup  (it compiles config/locale with msgfmt)"
    assert mo.is_file(), f"{mo} is missing: {hint}"
    assert mo.stat().st_mtime >= catalogue(code).stat().st_mtime, f"{mo} is older than its .po: {hint}"
    with translation.override(code):
        assert translation.gettext("Average stack") != "Average stack", f"{mo} is not in use"


@pytest.mark.parametrize(
    "code, english, translated",
    [
        ("fr", "Next break in", "Prochaine pause dans"),
        ("fr", "Average stack", "Tapis moyen"),
        ("es", "Big-blind ante", "Ante de ciega grande"),
        ("it", "Prize pool", "Montepremi"),
        ("ru", "Chip race at the end of the break", "Чип-рейс в конце перерыва"),
        ("el", "Average stack", "Μέσο stack"),
        ("el", "Hole cards for seat %(seat)s", "Κρυφά φύλλα της θέσης %(seat)s"),
    ],
)
def test_clock_and_tablet_labels_are_translated(code, english, translated):
    with translation.override(code):
        assert translation.gettext(english) == translated


def test_a_formatted_message_is_translated_then_filled_in():
    with translation.override("fr"):
        text = translation.gettext("Color-up: %(chips)s chips leave play") % {"chips": "25, 100"}
    assert text == "Color-up : 25, 100 jetons quittent le jeu"
    with translation.override("ru"):
        text = translation.gettext("Table %(table)s seat %(seat)s") % {"table": 3, "seat": 7}
    assert text == "Стол 3 место 7"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, detail",
    [
        ("fr", "table: Donnez un nombre entier de 1 à 9223372036854775807."),
        ("es", "table: Indique un número entero de 1 a 9223372036854775807."),
        ("en", "table: Give a whole number from 1 to 9223372036854775807."),
    ],
)
def test_an_api_error_comes_in_the_language_the_client_asks_for(client, language, detail):
    response = client.get("/api/hands/?table=x", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert response.json()["detail"] == detail
    assert response["Content-Language"] == language


@pytest.mark.django_db
def test_a_page_comes_in_the_language_the_browser_asks_for(client):
    page = client.get("/login/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Пароль" in page and "Имя пользователя" in page
