"""The screen's look from a small TOML file: colours, the two font files and an optional logo."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from rules import FileLineError

HERE = Path(__file__).parent
DEFAULT_THEME = HERE / "theme.toml"
FONT_DIR = HERE / "fonts"

Colour = tuple[int, int, int]

COLOUR_KEYS = (
    "background", "panel", "text", "dim", "score", "clock_running", "clock_stopped", "countdown", "home", "away",
    "scored", "missed", "refused", "recovered", "info", "offline",
)


@dataclass(frozen=True)
class Theme:
    colours: dict[str, Colour]
    bold_font: Path
    condensed_font: Path
    logo: Path | None

    def __getitem__(self, key: str) -> Colour:
        return self.colours[key]


def parse_colour(text: object, where: str, source: str) -> Colour:
    """"#rrggbb" -> (r, g, b); anything else is an error naming the key."""
    if isinstance(text, str) and len(text) == 7 and text[0] == "#":
        try:
            return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)
        except ValueError:
            pass
    raise FileLineError(source, None, f'{where}: expected a colour like "#1e6fd9", got {text!r}')


def _font(value: object, where: str, source: str, base: Path) -> Path:
    if not isinstance(value, str) or not value:
        raise FileLineError(source, None, f"{where}: expected a font file name, got {value!r}")
    for candidate in (FONT_DIR / value, base / value, Path(value)):
        if candidate.is_file():
            return candidate
    raise FileLineError(source, None, f"{where}: no font file {value!r} (looked in {FONT_DIR} and {base})")


def load_theme(path: str | Path | None = None) -> Theme:
    """The theme in ``path``; keys it leaves out keep the shipped theme's values."""
    default = tomllib.loads(DEFAULT_THEME.read_text(encoding="utf-8"))
    data = default
    source = str(path or DEFAULT_THEME)
    base = HERE
    if path is not None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise FileLineError(source, None, f"cannot read the theme ({err})") from None
        try:
            mine = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise FileLineError(source, None, f"not valid TOML: {err}") from None
        unknown = set(mine) - set(default)
        if unknown:
            raise FileLineError(source, None, f"unknown section {sorted(unknown)[0]!r}; expected colours, fonts, logo")
        data = {name: {**default[name], **mine.get(name, {})} for name in default}
        base = Path(path).parent
    colours = data["colours"]
    unknown_keys = set(colours) - set(COLOUR_KEYS)
    if unknown_keys:
        raise FileLineError(source, None, f"colours.{sorted(unknown_keys)[0]}: not a colour the screen uses")
    logo_name = data["logo"].get("file", "")
    logo = None
    if logo_name:
        logo = Path(logo_name) if Path(logo_name).is_absolute() else base / logo_name
        if not logo.is_file():
            raise FileLineError(source, None, f"logo.file: no such file {str(logo)!r}")
    return Theme(
        colours={key: parse_colour(colours[key], f"colours.{key}", source) for key in COLOUR_KEYS},
        bold_font=_font(data["fonts"].get("bold"), "fonts.bold", source, base),
        condensed_font=_font(data["fonts"].get("condensed"), "fonts.condensed", source, base),
        logo=logo,
    )
