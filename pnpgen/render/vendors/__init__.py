"""Print-on-demand shops as data: one YAML profile per shop in this folder (a new shop is a
new file, no code). A profile gives the products (trim in mm, exact size in pixels), the
bleed and safe area, colour mode, file format, the order of the sides, the ink limit, the
file names and how to upload. `load_profile` reads and checks one; export.py makes a
game's files for it (`pnpgen build --vendor NAME`); docs/vendors.md describes the keys.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pnpgen.errors import PnpgenError

FOLDER = Path(__file__).parent
FORMATS = ("png", "pdf-x1a")
COLOURS = ("rgb", "cmyk")
SIDES = ("front", "back")
KEYS = {"name", "url", "format", "colour", "ppi", "bleed_mm", "safe_mm", "preset", "ink_limit", "sides",
        "naming", "products", "match_mm", "upload"}


@dataclass(frozen=True)
class Product:
    name: str
    trim_mm: tuple[float, float]  # the cut card, portrait
    size_px: tuple[int, int]  # the whole picture or page, bleed included, portrait

    def fits(self, card_mm: tuple[float, float], tolerance: float) -> bool | None:
        """True when a card of `card_mm` is this product upright, False when turned a
        quarter (a landscape card on a portrait product), None when it is not."""
        w, h = card_mm
        if abs(w - self.trim_mm[0]) <= tolerance and abs(h - self.trim_mm[1]) <= tolerance:
            return True
        if abs(h - self.trim_mm[0]) <= tolerance and abs(w - self.trim_mm[1]) <= tolerance:
            return False
        return None

    def label(self) -> str:
        return f"{self.name} ({self.trim_mm[0]:g} × {self.trim_mm[1]:g} mm, {self.size_px[0]} × {self.size_px[1]} px)"


@dataclass(frozen=True)
class Profile:
    id: str  # the file's name: thegamecrafter
    name: str
    url: str
    format: str  # png | pdf-x1a
    colour: str  # rgb | cmyk
    ppi: int
    bleed_mm: float
    safe_mm: float
    preset: str
    ink_limit: float | None  # percent
    sides: tuple[str, ...]
    naming: dict[str, str]
    products: tuple[Product, ...]
    match_mm: float
    upload: str

    def product_for(self, card_mm: tuple[float, float]) -> tuple[Product, bool] | None:
        """The product a card is made as, and whether it stands upright on it."""
        for product in self.products:
            upright = product.fits(card_mm, self.match_mm)
            if upright is not None:
                return product, upright
        return None


def vendor_names() -> list[str]:
    """The shops with a profile, by file name."""
    return sorted(p.stem for p in FOLDER.glob("*.yaml"))


def _fail(path: Path, message: str) -> PnpgenError:
    return PnpgenError(f"{path}: {message}")


def _pair(path: Path, value: object, what: str, kind: type) -> tuple[Any, Any]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int | float) and v > 0 for v in value)):
        raise _fail(path, f"{what} must be two positive numbers, e.g. [63.5, 88.9]")
    return kind(value[0]), kind(value[1])


def read_profile(path: Path) -> Profile:
    """A profile file, checked: every key known, every value of its kind."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise _fail(path, f"cannot read the profile: {error}") from None
    if not isinstance(data, dict):
        raise _fail(path, "a vendor profile is a mapping of keys (docs/vendors.md)")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        close = difflib.get_close_matches(unknown[0], KEYS, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise _fail(path, f"unknown key '{unknown[0]}'{hint}")
    missing = sorted(KEYS - set(data) - {"ink_limit", "url"})
    if missing:
        raise _fail(path, f"missing key '{missing[0]}'")
    if data["format"] not in FORMATS:
        raise _fail(path, f"format: '{data['format']}' is not one of {', '.join(FORMATS)}")
    if data["colour"] not in COLOURS:
        raise _fail(path, f"colour: '{data['colour']}' is not one of {', '.join(COLOURS)}")
    if data["format"] == "pdf-x1a" and data["colour"] != "cmyk":
        raise _fail(path, "colour: a PDF/X-1a file is CMYK")
    sides = tuple(data["sides"] or ())
    if not sides or any(s not in SIDES for s in sides) or len(set(sides)) != len(sides):
        raise _fail(path, "sides: a list of front and back, e.g. [back, front]")
    naming = data["naming"]
    needed = ("deck",) if data["format"] == "pdf-x1a" else ("front", "back", "shared_back")
    if not isinstance(naming, dict) or any(not isinstance(naming.get(k), str) for k in needed):
        raise _fail(path, f"naming: needs {', '.join(needed)} (file name patterns)")
    products = []
    for index, item in enumerate(data["products"] or []):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise _fail(path, f"products[{index}]: a mapping with name, trim_mm and size_px")
        products.append(Product(item["name"], _pair(path, item.get("trim_mm"), f"products[{index}].trim_mm", float),
                                _pair(path, item.get("size_px"), f"products[{index}].size_px", int)))
    if not products:
        raise _fail(path, "products: at least one product")
    ink = data.get("ink_limit")
    if ink is not None and not (isinstance(ink, int | float) and 100 <= ink <= 400):
        raise _fail(path, "ink_limit: a percentage of total ink between 100 and 400, or null")
    for key in ("ppi", "bleed_mm", "safe_mm", "match_mm"):
        if not isinstance(data[key], int | float) or data[key] < 0:
            raise _fail(path, f"{key}: a number, 0 or more")
    return Profile(
        id=path.stem, name=str(data["name"]), url=str(data.get("url", "")), format=data["format"],
        colour=data["colour"], ppi=int(data["ppi"]), bleed_mm=float(data["bleed_mm"]), safe_mm=float(data["safe_mm"]),
        preset=str(data["preset"]), ink_limit=float(ink) if ink is not None else None, sides=sides,
        naming={str(k): str(v) for k, v in naming.items()}, products=tuple(products),
        match_mm=float(data["match_mm"]), upload=str(data["upload"]).strip())


@lru_cache(maxsize=16)
def load_profile(name: str) -> Profile:
    """The profile of shop `name` (a --vendor value); one-line error naming the shops."""
    names = vendor_names()
    if name not in names:
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise PnpgenError(f"unknown vendor '{name}'{hint}; vendors: {', '.join(names)}")
    return read_profile(FOLDER / f"{name}.yaml")
