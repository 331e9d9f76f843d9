"""Draw the installed app's PNG icons from the site's logo (static/img/logo.svg) and
colours (static/css/app.css), with Pillow:

- ``static/img/icon-192.png`` and ``icon-512.png``: the logo's two tiles on a rounded
  square of the header's blue (the manifest's icons of purpose ``any``);
- ``static/img/icon-maskable-512.png``: the same tiles on a full square, inside the
  central circle of 80 % that every launcher's mask keeps (purpose ``maskable``);
- ``static/img/badge-96.png``: the tiles alone in white on transparent (the small
  monochrome badge Android shows in its status bar for a push).

The PNGs are committed; run this again after the logo or the colours change:

    .venv/bin/python scripts/make_icons.py

Pillow is a development dependency only: the site serves the PNGs as static files.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "img"

# static/css/app.css
IVORY = "#fffaf0"
LINE = "#d9cfbd"
RED = "#c8372d"
BLUE = "#1d5fb8"

SERIF_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"
SUPERSAMPLE = 4

# The logo's tiles in its 64-unit viewBox: box (x, y, width, height), its number, its
# colour, and the turn about the point (cx, cy), as in static/img/logo.svg.
TILES = (
    ((4, 10, 30, 44), "7", RED, -8, (19, 32), (19, 40), (19, 47)),
    ((28, 8, 30, 44), "8", BLUE, 6, (43, 30), (43, 38), (43, 45)),
)


def font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(SERIF_BOLD, round(size))
    except OSError:
        return ImageFont.load_default(round(size))


def draw_tiles(size: int, scale: float, offset: float, mono: str | None = None) -> Image.Image:
    """The logo's two tiles on a transparent square of ``size`` pixels: 64 logo units
    are ``scale`` pixels each, from ``offset`` pixels. ``mono``: every part in that
    colour, the numbers cut out (a badge)."""
    canvas = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    for (x, y, w, h), number, colour, turn, centre, text_at, dot_at in TILES:
        layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        pen = ImageDraw.Draw(layer)

        def at(u: float, v: float) -> tuple[float, float]:
            return (offset + u * scale, offset + v * scale)

        box = (*at(x, y), *at(x + w, y + h))
        face = mono or IVORY
        pen.rounded_rectangle(
            box,
            radius=6 * scale,
            fill=face,
            outline=mono or LINE,
            width=0 if mono else max(1, round(2 * scale)),
        )
        ink = (0, 0, 0, 0) if mono else colour
        pen.text(at(*text_at), number, font=font(22 * scale), fill=ink, anchor="ms")
        dx, dy = at(*dot_at)
        r = 2.2 * scale
        pen.ellipse((dx - r, dy - r, dx + r, dy + r), fill=ink)
        # Pillow turns counter-clockwise; SVG's rotate() clockwise.
        layer = layer.rotate(-turn, center=at(*centre), resample=Image.Resampling.BICUBIC)
        canvas = Image.alpha_composite(canvas, layer)
    return canvas


def icon(size: int, maskable: bool = False) -> Image.Image:
    big = size * SUPERSAMPLE
    background = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(background)
    if maskable:
        # Full bleed: the launcher cuts its own shape out of it.
        pen.rectangle((0, 0, big, big), fill=BLUE)
        content = 0.56 * big  # the tiles' 64 units, well inside the 80 % circle
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=0.22 * big, fill=BLUE)
        content = 0.78 * big
    scale = content / 64
    tiles = draw_tiles(big, scale, (big - content) / 2)
    image = Image.alpha_composite(background, tiles)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def badge(size: int) -> Image.Image:
    big = size * SUPERSAMPLE
    content = 0.9 * big
    tiles = draw_tiles(big, content / 64, (big - content) / 2, mono="#ffffff")
    return tiles.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    made = {
        "icon-192.png": icon(192),
        "icon-512.png": icon(512),
        "icon-maskable-512.png": icon(512, maskable=True),
        "badge-96.png": badge(96),
    }
    for name, image in made.items():
        image.save(OUT / name, optimize=True)
        print(f"{OUT.relative_to(ROOT) / name}: {image.size[0]}x{image.size[1]}")


if __name__ == "__main__":
    main()
