"""The rulebook's document: a small structure of inline text and blocks, as Markdown or HTML.

Phase: docs. Input: the blocks the rulebook's sections write (headings, paragraphs, lists and
tables of inline text: text, code, strong, em, links to anchors). Output: `Book`, rendered by
`to_markdown` as Markdown or by `to_html` as a standalone HTML page. Both renderings walk the
same structure, so neither is parsed back from the other and every piece of text is escaped
exactly once, at the end. Also the helpers that make inline text: `prose` (a text written for
people, its `backticks` as code), `slug` (an anchor as GitHub derives it) and the joining of
inline runs into one sentence.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

# -- the document structure ------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """A run of inline text: text, code, strong, em, or a link to an anchor (`target`)."""
    kind: str
    text: str
    target: str = ""


Inlines = list[Span]


@dataclass
class Heading:
    level: int
    text: str
    anchor: str = ""


@dataclass
class Para:
    inlines: Inlines


@dataclass
class Item:
    inlines: Inlines
    children: list[Block] = field(default_factory=list)


@dataclass
class ListBlock:
    items: list[Item]
    ordered: bool = False


@dataclass
class Table:
    header: list[Inlines]
    rows: list[list[Inlines]]


Block = Heading | Para | ListBlock | Table


@dataclass
class Book:
    title: str
    blocks: list[Block]


def text(s: str) -> Span:
    return Span("text", s)


def code(s: str) -> Span:
    return Span("code", s)


def strong(s: str) -> Span:
    return Span("strong", s)


def em(s: str) -> Span:
    return Span("em", s)


def link(s: str, target: str) -> Span:
    return Span("link", s, target)


def prose(s: Any) -> Inlines:
    """Text written for people (a `doc`, a description): `backticks` mark code, as in the
    rulesets' own docs; whitespace (folded YAML) is collapsed."""
    s = " ".join(str(s).split())
    parts = s.split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick stays text
        parts[-2:] = [parts[-2] + "`" + parts[-1]]
    return [code(p) if i % 2 else text(p) for i, p in enumerate(parts) if p]


def slug(s: str) -> str:
    """An anchor as GitHub derives it from a heading, so Markdown links work there too."""
    s = re.sub(r"[^\w\- ]", "", s.strip().lower())
    return s.replace(" ", "-")


# -- joining inline text -----------------------------------------------------------------------

def joined(parts: list[Inlines], last: str = "and") -> Inlines:
    out: Inlines = []
    for i, p in enumerate(parts):
        if i:
            if i < len(parts) - 1:
                out.append(text(", "))
            else:
                out.append(text(f"{last} " if last in (",", ";") else f" {last} "))
        out += p
    return out


def capital(inl: Inlines) -> Inlines:
    if inl and inl[0].kind == "text" and inl[0].text:
        return [text(inl[0].text[0].upper() + inl[0].text[1:])] + inl[1:]
    return inl


def lower(inl: Inlines) -> Inlines:
    if inl and inl[0].kind == "text" and inl[0].text[:1].isupper() and inl[0].text[1:2] != " ":
        return [text(inl[0].text[0].lower() + inl[0].text[1:])] + inl[1:]
    return inl


# -- the renderings ------------------------------------------------------------------------------

def to_markdown(book: Book) -> str:
    return "\n".join(_md_blocks(book.blocks)) + "\n"


def to_html(book: Book) -> str:
    body = "\n".join(_html_block(b) for b in book.blocks)
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(book.title)}: rulebook</title>\n<style>\n{_CSS}</style>\n"
            f"</head>\n<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n")


# -- Markdown ----------------------------------------------------------------------------------

def _md_text(s: str) -> str:
    s = s.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`")
    s = re.sub(r"\[|\]", lambda m: "\\" + m.group(0), s)
    s = re.sub(r"(?<!\w)_|_(?!\w)", r"\\_", s)            # intraword _ stays as it is
    s = re.sub(r"<(?=[A-Za-z/!?])", r"\\<", s)            # never the start of an HTML tag
    return re.sub(r"&(?=#|\w+;)", "&amp;", s)           # text, never an entity


def _md_code(s: str) -> str:
    s = " ".join(s.split())
    longest = max((len(m) for m in re.findall(r"`+", s)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or longest else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def _md_inlines(inl: Inlines) -> str:
    out = []
    for s in inl:
        if s.kind == "code":
            out.append(_md_code(s.text))
        elif s.kind == "strong":
            out.append(f"**{_md_text(s.text)}**")
        elif s.kind == "em":
            out.append(f"*{_md_text(s.text.rstrip())}*" + (" " if s.text.endswith(" ") else ""))
        elif s.kind == "link":
            out.append(f"[{_md_text(s.text)}](#{s.target})")
        else:
            out.append(_md_text(s.text))
    line = "".join(out)
    # A line must not start a block of its own (a heading, a quote, a list item).
    return re.sub(r"^(\s*)([#>+=-]|\d+[.)])", r"\1\\\2", line)


def _md_blocks(blocks: list[Block]) -> list[str]:
    out: list[str] = []
    for blk in blocks:
        if out:
            out.append("")
        out += _md_block(blk)
    return out


def _md_block(blk: Block) -> list[str]:
    if isinstance(blk, Heading):
        return ["#" * blk.level + " " + _md_text(blk.text)]
    if isinstance(blk, Para):
        return [_md_inlines(blk.inlines)]
    if isinstance(blk, Table):
        def row(cells: list[Inlines]) -> str:
            return "| " + " | ".join(_md_inlines(c).replace("|", "\\|") for c in cells) + " |"
        return [row(blk.header), "|" + "---|" * len(blk.header)] + [row(r) for r in blk.rows]
    lines: list[str] = []
    for i, item in enumerate(blk.items, 1):
        marker = f"{i}. " if blk.ordered else "- "
        pad = " " * len(marker)
        lines.append(marker + _md_inlines(item.inlines))
        prev: Block | None = None
        for child in item.children:
            # A paragraph after a nested list needs a blank line, or it would continue the
            # list's last item; lists right under the item's line keep the list tight.
            if prev is not None:
                lines.append("")
            lines += [pad + ln if ln else "" for ln in _md_block(child)]
            prev = child
    return lines


# -- HTML --------------------------------------------------------------------------------------

_CSS = """body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #222; }
main { max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
h1, h2, h3 { line-height: 1.2; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.2rem; }
code { background: #f3f3f3; padding: 0 .2em; border-radius: 3px; font-size: .92em; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ddd; padding: .2rem .5rem; text-align: left; vertical-align: top; }
li > p { margin: .3rem 0; }
"""


def _html_inlines(inl: Inlines) -> str:
    out = []
    for s in inl:
        t = html.escape(s.text)
        if s.kind == "code":
            out.append(f"<code>{html.escape(' '.join(s.text.split()))}</code>")
        elif s.kind == "strong":
            out.append(f"<strong>{t}</strong>")
        elif s.kind == "em":
            out.append(f"<em>{t}</em>")
        elif s.kind == "link":
            out.append(f"<a href=\"#{html.escape(s.target)}\">{t}</a>")
        else:
            out.append(t)
    return "".join(out)


def _html_block(blk: Block) -> str:
    if isinstance(blk, Heading):
        return (f"<h{blk.level} id=\"{html.escape(blk.anchor)}\">{html.escape(blk.text)}"
                f"</h{blk.level}>")
    if isinstance(blk, Para):
        return f"<p>{_html_inlines(blk.inlines)}</p>"
    if isinstance(blk, Table):
        head = "".join(f"<th>{_html_inlines(c)}</th>" for c in blk.header)
        rows = "\n".join("<tr>" + "".join(f"<td>{_html_inlines(c)}</td>" for c in r) + "</tr>"
                         for r in blk.rows)
        return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>"
    tag = "ol" if blk.ordered else "ul"
    items = []
    for item in blk.items:
        inner = "\n".join(_html_block(c) for c in item.children)
        items.append(f"<li>{_html_inlines(item.inlines)}" + (f"\n{inner}\n" if inner else "")
                     + "</li>")
    return f"<{tag}>\n" + "\n".join(items) + f"\n</{tag}>"
