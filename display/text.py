"""Type: fonts loaded once per size, text rendered once per content, numbers set in tabular cells.

Rendering a 400-pixel glyph costs milliseconds; blitting a ready one costs microseconds.
So each distinct (face, size, text, colours) is rendered once and kept (least recently used
entries are dropped past a bound), and the clock and scores are assembled from one rendered
glyph per character, each digit in a cell of the same width, so the clock never jitters.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pygame

Colour = tuple[int, int, int]

CAP = 0.73  # DejaVu Sans Bold: the height of a digit, as a fraction of the font size
LINE = 1.17  # the font's line height, as a fraction of its size


def _drawable(text: str) -> str:
    """``text`` with control characters shown as U+FFFD: SDL_ttf refuses a NUL outright, and a name
    that reached the screen from a schedule over MQTT must never stop the scoreboard."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else "\ufffd" for ch in text)


class Typesetter:
    def __init__(self, faces: dict[str, Path], cache_size: int = 512, like: pygame.Surface | None = None) -> None:
        self._faces = faces
        self._like = like  # rendered text is converted to this surface's pixel format once: blits are then copies
        self._fonts: dict[tuple[str, int], pygame.font.Font] = {}
        self._texts: OrderedDict[tuple[str, int, str, Colour, Colour], pygame.Surface] = OrderedDict()
        self._glyphs: dict[tuple[str, int, str, Colour, Colour], pygame.Surface] = {}
        self._digits: dict[tuple[str, int], int] = {}
        self._fits: dict[tuple[str, str, int, int, bool], int] = {}
        self._cache_size = cache_size
        self.renders = 0  # text renders so far: tests check that an unchanged frame renders nothing

    def font(self, face: str, px: int) -> pygame.font.Font:
        key = (face, px)
        found = self._fonts.get(key)
        if found is None:
            found = self._fonts[key] = pygame.font.Font(str(self._faces[face]), px)
        return found

    def text(self, face: str, px: int, text: str, colour: Colour, background: Colour) -> pygame.Surface:
        """``text`` rendered on an opaque background (fast to blit)."""
        key = (face, px, text, colour, background)
        found = self._texts.get(key)
        if found is not None:
            self._texts.move_to_end(key)
            return found
        self.renders += 1
        surface = self._converted(self.font(face, px).render(_drawable(text), True, colour, background))
        self._texts[key] = surface
        if len(self._texts) > self._cache_size:
            self._texts.popitem(last=False)
        return surface

    def fit(self, face: str, text: str, width: int, height: int, *, numeric: bool = False) -> int:
        """The largest size at which ``text`` fits ``width`` x ``height``.

        ``numeric``: size by the digits' height (no descenders or accents), so numbers fill their box.
        """
        key = (face, text, width, height, numeric)
        found = self._fits.get(key)
        if found is not None:
            return found
        by_height = int(height * 0.94 / CAP) if numeric else int(height / LINE)  # round digits overshoot
        ref = 100
        ref_width = max(1, self.font(face, ref).size(text)[0])
        px = max(6, min(by_height, int(ref * width / ref_width)))
        while px > 6 and self.font(face, px).size(text)[0] > width:
            px -= max(1, px // 40)
        self._fits[key] = px
        return px

    def glyph(self, face: str, px: int, char: str, colour: Colour, background: Colour) -> pygame.Surface:
        key = (face, px, char, colour, background)
        found = self._glyphs.get(key)
        if found is None:
            self.renders += 1
            found = self._glyphs[key] = self._converted(self.font(face, px).render(char, True, colour, background))
        return found

    def _converted(self, surface: pygame.Surface) -> pygame.Surface:
        return surface.convert(self._like) if self._like is not None else surface

    def digit_width(self, face: str, px: int) -> int:
        """The width of a tabular cell: the widest digit."""
        key = (face, px)
        found = self._digits.get(key)
        if found is None:
            font = self.font(face, px)
            found = self._digits[key] = max(font.size(d)[0] for d in "0123456789")
        return found

    def number_width(self, face: str, px: int, text: str) -> int:
        """The width of ``text`` set in tabular cells: every digit as wide as the widest."""
        digit = self.digit_width(face, px)
        font = self.font(face, px)
        return sum(digit if c.isdigit() else font.size(c)[0] for c in text)

    def draw_number(self, target: pygame.Surface, rect: pygame.Rect, face: str, px: int, text: str,
                    colour: Colour, background: Colour, align: str = "center", fill: bool = False) -> pygame.Rect:
        """Blit ``text`` glyph by glyph in tabular cells, its digits' box centred vertically in ``rect``.

        ``fill``: also paint the background of ``rect`` where no glyph lands, so the caller need not
        clear the whole box first (the glyphs are opaque: a clock tick then writes each pixel once).
        """
        font = self.font(face, px)
        digit = self.digit_width(face, px)
        total = self.number_width(face, px, text)
        x = {"left": rect.left, "right": rect.right - total}.get(align, rect.centerx - total // 2)
        # Centre the digits' ink (cap height) in the box, not the font's line box.
        y = rect.centery - (font.get_ascent() - int(px * CAP / 2))
        start = x
        # A glyph's opaque box is taller than its ink: keep it inside ``rect`` so it never blanks a label above.
        clip = target.get_clip()
        target.set_clip(rect.clip(clip))
        for c in text:
            g = self.glyph(face, px, c, colour, background)
            cell = digit if c.isdigit() else g.get_width()
            target.blit(g, (x + (cell - g.get_width()) // 2, y))
            x += cell
        target.set_clip(clip)
        if fill:
            covered = pygame.Rect(start, y, total, font.get_height()).clip(rect)
            for strip in (
                pygame.Rect(rect.left, rect.top, rect.width, covered.top - rect.top),
                pygame.Rect(rect.left, covered.bottom, rect.width, rect.bottom - covered.bottom),
                pygame.Rect(rect.left, covered.top, covered.left - rect.left, covered.height),
                pygame.Rect(covered.right, covered.top, rect.right - covered.right, covered.height),
            ):
                if strip.width > 0 and strip.height > 0:
                    target.fill(background, strip.clip(clip))
        return pygame.Rect(start, rect.top, total, rect.height)


def blit_text(target: pygame.Surface, surface: pygame.Surface, rect: pygame.Rect, align: str = "center") -> None:
    """Blit a rendered line inside ``rect``: aligned left, right or centred, centred vertically."""
    w, h = surface.get_size()
    x = {"left": rect.left, "right": rect.right - w}.get(align, rect.centerx - w // 2)
    target.blit(surface, (x, rect.centery - h // 2))
