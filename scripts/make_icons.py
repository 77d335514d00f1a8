"""Draw the app icons (static/icons/*.png) with nothing but the standard library.

Run once when the artwork changes; the PNGs are committed as sources:

    python3 scripts/make_icons.py [--out static/icons]

The picture: a sun over two mountain ridges on a night-blue ground (an expedition leaving for a
lost city). "any" icons are a rounded square with transparent corners; "maskable" icons fill the
whole square and keep the picture inside the central safe circle (radius 40 % of the size), as
the maskable icon spec asks.
"""

from __future__ import annotations

import argparse
import math
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = (192, 512)
GROUND = (0x1F, 0x3A, 0x4D)  # the manifest's theme_color
SUN = (0xF2, 0xB1, 0x34)
FAR_RIDGE = (0x5B, 0x86, 0x8F)
NEAR_RIDGE = (0xE8, 0xDF, 0xC8)
SAMPLES = 3  # supersampling per axis, for smooth edges

Colour = tuple[int, int, int]
Shape = Callable[[float, float], bool]


def png_bytes(width: int, height: int, rgba_rows: list[bytes]) -> bytes:
    """An 8-bit RGBA PNG of the given rows (each 4 * width bytes)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rgba_rows)  # filter type 0 on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def ridge(peaks: list[tuple[float, float]]) -> Shape:
    """Points below the polyline through peaks (x, y in 0..1, y downwards)."""

    def inside(x: float, y: float) -> bool:
        for (x0, y0), (x1, y1) in zip(peaks, peaks[1:]):
            if x0 <= x <= x1:
                return y >= y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        return False

    return inside


def scene(cx: float, cy: float, scale: float) -> list[tuple[Shape, Colour]]:
    """The picture's layers, back to front, centred on (cx, cy), scale = its half-width."""

    def at(px: float, py: float) -> tuple[float, float]:
        return cx + px * scale, cy + py * scale

    sun_x, sun_y = at(0.28, -0.30)
    sun_r = 0.26 * scale
    far = ridge([at(-1.2, 0.35), at(-0.55, -0.25), at(-0.1, 0.15), at(0.35, -0.05),
                 at(1.2, 0.45)])
    near = ridge([at(-1.2, 0.55), at(-0.35, 0.05), at(0.05, 0.40), at(0.6, 0.10),
                  at(1.2, 0.60)])
    return [
        (lambda x, y: math.hypot(x - sun_x, y - sun_y) <= sun_r, SUN),
        (far, FAR_RIDGE),
        (near, NEAR_RIDGE),
    ]


def rounded_square(radius: float) -> Shape:
    """The unit square with rounded corners."""

    def inside(x: float, y: float) -> bool:
        dx = max(radius - x, x - (1 - radius), 0.0)
        dy = max(radius - y, y - (1 - radius), 0.0)
        return dx * dx + dy * dy <= radius * radius

    return inside


def render(size: int, maskable: bool) -> bytes:
    """The icon as PNG bytes."""
    if maskable:
        outline: Shape = lambda x, y: True  # noqa: E731 (full bleed)
        layers = scene(0.5, 0.5, 0.40)  # inside the safe circle
        clip: Shape = lambda x, y: math.hypot(x - 0.5, y - 0.5) <= 0.40  # noqa: E731
    else:
        outline = rounded_square(0.18)
        layers = scene(0.5, 0.5, 0.50)
        clip = outline
    rows = []
    step = 1 / (size * SAMPLES)
    for j in range(size):
        row = bytearray()
        for i in range(size):
            total = [0, 0, 0]
            covered = 0
            for sj in range(SAMPLES):
                y = (j * SAMPLES + sj + 0.5) * step
                for si in range(SAMPLES):
                    x = (i * SAMPLES + si + 0.5) * step
                    if not outline(x, y):
                        continue
                    covered += 1
                    colour = GROUND
                    if clip(x, y):
                        for shape, paint in layers:
                            if shape(x, y):
                                colour = paint
                    for k in range(3):
                        total[k] += colour[k]
            if covered:
                row += bytes(round(c / covered) for c in total)
                row.append(round(255 * covered / SAMPLES**2))
            else:
                row += b"\x00\x00\x00\x00"
        rows.append(bytes(row))
    return png_bytes(size, size, rows)


def icon_names() -> dict[str, tuple[int, bool]]:
    """File name -> (size, maskable) for every icon the manifest lists."""
    names = {}
    for size in SIZES:
        names[f"icon-{size}.png"] = (size, False)
        names[f"icon-maskable-{size}.png"] = (size, True)
    return names


def main() -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "static" / "icons")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, (size, maskable) in icon_names().items():
        data = render(size, maskable)
        (args.out / name).write_bytes(data)
        print(f"wrote {args.out / name} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
