"""The director's guide (docs/directors-guide.md) inside the console, with its screenshots.

A few lines of Markdown are enough for the guide: headings, paragraphs, lists, bold, code and images.
Everything is escaped first; only the guide's own files are read.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import mark_safe

from .staff import console_can

DOCS = Path(settings.BASE_DIR) / "docs"
GUIDE = DOCS / "directors-guide.md"
DEALER_GUIDE = DOCS / "dealers-guide.md"
SHOT = re.compile(r"^console-[a-z0-9-]+\.png$")


def _inline(line: str) -> str:
    line = escape(line)
    line = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", line)
    line = re.sub(r"`(.+?)`", r"<code>\1</code>", line)
    return re.sub(r"\[([^\]]+)\]\((https?://[^)\s]+|/[^)\s]*|#[^)\s]*)\)", r'<a href="\2">\1</a>', line)


@lru_cache(maxsize=4)
def render_guide(text: str) -> str:
    html, in_list = [], False
    for raw in text.splitlines():
        line = raw.rstrip()
        image = re.match(r"^!\[([^\]]*)\]\(([^)\s]+)\)$", line)
        if in_list and not line.startswith(("- ", "* ")):
            html.append("</ul>")
            in_list = False
        if not line:
            continue
        if image:
            name = Path(image.group(2)).name
            if SHOT.match(name):
                html.append(
                    f'<figure><img src="/console/help/{escape(name)}" alt="{escape(image.group(1))}" '
                    f'class="guide-shot"><figcaption>{escape(image.group(1))}</figcaption></figure>'
                )
        elif heading := re.match(r"^(#{1,4}) (.*)$", line):
            level = len(heading.group(1))
            anchor = re.sub(r"[^a-z0-9]+", "-", heading.group(2).lower()).strip("-")
            html.append(f'<h{level} id="{anchor}">{_inline(heading.group(2))}</h{level}>')
        elif line.startswith(("- ", "* ")):
            if not in_list:
                html.append("<ul>")
                in_list = True
            html.append(f"<li>{_inline(line[2:])}</li>")
        else:
            html.append(f"<p>{_inline(line)}</p>")
    if in_list:
        html.append("</ul>")
    return "\n".join(html)


@console_can("view")
def guide(request):
    text = GUIDE.read_text(encoding="utf-8") if GUIDE.exists() else ""
    return render(request, "console/help.html", {"guide": mark_safe(render_guide(text))})


@console_can("view")
def screenshot(request, name: str):
    if not SHOT.match(name) or not (DOCS / name).is_file():
        raise Http404(name)
    return FileResponse(open(DOCS / name, "rb"), content_type="image/png")


def dealer_guide(request):
    """The dealer's one-page guide (docs/dealers-guide.md): public, printable, behind the tablet's "?"."""
    text = DEALER_GUIDE.read_text(encoding="utf-8") if DEALER_GUIDE.exists() else ""
    return render(request, "dealer_guide.html", {"guide": mark_safe(render_guide(text))})
