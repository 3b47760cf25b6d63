"""Press output: RGB -> CMYK through a real press profile, total ink held under INK_LIMIT
(300%), and PDF/X-4 plumbing for print-shop files.

The profile (icc/pnpgen-FOGRA39.icc, offset on coated paper; icc/README.txt says how it
was made and under which licence) converts colours and pictures, and is embedded as the
file's output intent. Neutral greys, black text included, go to black ink alone (K), as
a print shop expects, never to a four-ink rich black.

`make_pdfx` turns a finished ReportLab file into PDF/X-4 with pikepdf: /OutputIntents
with the embedded profile, `GTS_PDFXVersion`, `/Trapped`, XMP metadata agreeing with the
document info, PDF 1.6. Dates are the file's own (ReportLab's fixed date, or
`SOURCE_DATE_EPOCH`), and the file ID is derived from the content, so rebuilds stay
byte-identical.
"""

from __future__ import annotations

import hashlib
import uuid
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

PROFILE = Path(__file__).parent / "icc" / "pnpgen-FOGRA39.icc"
CONDITION = "FOGRA39"  # the registered characterisation the profile was made from
CONDITION_TEXT = "Offset printing, coated paper (ISO 12647-2:2004/Amd 1, FOGRA39)"
PDFX_VERSION = "PDF/X-4"


@lru_cache(maxsize=1)
def _transform() -> Any:
    from PIL import ImageCms

    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PROFILE)),
                                   "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


INK_LIMIT = 3.0  # total ink (C + M + Y + K) of a print-shop file: 300%, usual for FOGRA39 / PDF/X-4 offset


def limit_ink(cmyk: tuple[float, float, float, float], limit: float = INK_LIMIT) -> tuple[float, float, float, float]:
    """CMYK (0..1) with at most `limit` of total ink: C, M and Y lowered in proportion, K
    kept (it carries the darkness), as a press's total-area-coverage limit does."""
    c, m, y, k = cmyk
    over = c + m + y + k - limit
    if over <= 0 or c + m + y <= 0:
        return cmyk
    keep = max(0.0, 1 - over / (c + m + y))
    return (round(c * keep, 4), round(m * keep, 4), round(y * keep, 4), k)


@lru_cache(maxsize=4096)
def rgb_to_cmyk(r: float, g: float, b: float, limit: float = INK_LIMIT) -> tuple[float, float, float, float]:
    """An sRGB colour (0..1) as press CMYK (0..1), at most `limit` of total ink; a neutral
    grey as black ink only."""
    if abs(r - g) < 1e-6 and abs(g - b) < 1e-6:
        return (0.0, 0.0, 0.0, round(1 - r, 4))
    from PIL import Image, ImageCms

    pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in (r, g, b)))
    c, m, y, k = ImageCms.applyTransform(pixel, _transform()).getpixel((0, 0))  # type: ignore[union-attr,misc]
    return limit_ink(tuple(round(v / 255, 4) for v in (c, m, y, k)), limit)  # type: ignore[arg-type]


def limit_picture_ink(cmyk: Any, limit: float = INK_LIMIT) -> object:
    """A PIL CMYK picture with at most `limit` of total ink in every pixel (limit_ink)."""
    from PIL import Image, ImageMath

    c, m, y, k = cmyk.split()
    most = round(limit * 255)

    def lowered(channel: object) -> Any:
        return ImageMath.lambda_eval(
            lambda a: a["convert"](a["ch"] - (a["ch"] * a["max"](a["c"] + a["m"] + a["y"] + a["k"] - most, 0)
                                              + a["max"](a["c"] + a["m"] + a["y"], 1) - 1)
                                   / a["max"](a["c"] + a["m"] + a["y"], 1), "L"),
            ch=channel, c=c, m=m, y=y, k=k)

    return Image.merge("CMYK", [lowered(c), lowered(m), lowered(y), k])


def cmyk_picture(rgb: Any, limit: float = INK_LIMIT) -> object:
    """A PIL RGB picture in press CMYK (greys in K only, as for colours), at most `limit`
    of total ink in any pixel."""
    from PIL import Image, ImageCms

    cmyk = limit_picture_ink(ImageCms.applyTransform(rgb, _transform()), limit)
    grey = rgb.convert("L")
    r, g, b = rgb.split()
    from PIL import ImageChops

    neutral = ImageChops.lighter(ImageChops.difference(r, g), ImageChops.difference(g, b)).point(
        lambda v: 255 if v == 0 else 0)
    if neutral.getbbox() is None:  # no neutral pixel
        return cmyk
    k_only = Image.merge("CMYK", [Image.new("L", rgb.size, 0)] * 3 + [grey.point(lambda v: 255 - v)])
    return Image.composite(k_only, cmyk, neutral)  # type: ignore[arg-type]


def _pdf_date_to_iso(value: str) -> str:
    """D:YYYYMMDDHHmmSS+HH'mm' -> YYYY-MM-DDTHH:mm:SS+HH:mm (XMP)."""
    text = value[2:] if value.startswith("D:") else value
    digits = text[:14].ljust(14, "0")
    date = f"{digits[0:4]}-{digits[4:6]}-{digits[6:8]}T{digits[8:10]}:{digits[10:12]}:{digits[12:14]}"
    zone = text[14:].replace("'", "")
    if not zone or zone[0] == "Z":
        return date + "Z"
    return f"{date}{zone[0]}{zone[1:3]}:{zone[3:5] or '00'}"


def xmp_packet(title: str, author: str, created: str, modified: str, producer: str, document_id: str,
               lang: str = "x-default", version: str = PDFX_VERSION) -> bytes:
    """The XMP metadata of a PDF/X-4 file (ISO 15930-7 6.7.4 and 6.7.5), or of another
    PDF/X `version` (vendors/export.py: PDF/X-1a:2003)."""
    creator = (f"<dc:creator><rdf:Seq><rdf:li>{escape(author)}</rdf:li></rdf:Seq></dc:creator>"
               if author else "")
    body = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about=""
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
 xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
 xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="{escape(lang)}">{escape(title)}</rdf:li></rdf:Alt></dc:title>
{creator}
<xmp:CreateDate>{created}</xmp:CreateDate>
<xmp:ModifyDate>{modified}</xmp:ModifyDate>
<xmp:MetadataDate>{modified}</xmp:MetadataDate>
<xmp:CreatorTool>pnpgen</xmp:CreatorTool>
<pdf:Producer>{escape(producer)}</pdf:Producer>
<pdf:Trapped>False</pdf:Trapped>
<xmpMM:DocumentID>uuid:{document_id}</xmpMM:DocumentID>
<xmpMM:InstanceID>uuid:{document_id}</xmpMM:InstanceID>
<xmpMM:VersionID>1</xmpMM:VersionID>
<xmpMM:RenditionClass>default</xmpMM:RenditionClass>
<pdfxid:GTS_PDFXVersion>{escape(version)}</pdfxid:GTS_PDFXVersion>
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    return body.encode("utf-8")


def make_pdfx(path: Path, title: str, author: str = "", lang: str = "x-default") -> None:
    """Rewrite the PDF at `path` (ReportLab's, CMYK drawn) as PDF/X-4, in place."""
    import pikepdf

    data = path.read_bytes()
    document_id = str(uuid.UUID(bytes=hashlib.sha256(data).digest()[:16], version=4))
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        info = pdf.docinfo
        created = str(info.get("/CreationDate", "D:20000101000000+00'00'"))
        modified = str(info.get("/ModDate", created))
        producer = "pnpgen"
        profile = pdf.make_stream(PROFILE.read_bytes())
        profile.N = 4
        profile.Alternate = pikepdf.Name.DeviceCMYK
        intent = pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=CONDITION, OutputCondition=CONDITION_TEXT,
            RegistryName="http://www.color.org", Info="pnpgen FOGRA39 (coated offset)",
            DestOutputProfile=profile)
        pdf.Root.OutputIntents = pikepdf.Array([intent])
        info["/Title"] = title
        if author:
            info["/Author"] = author
        elif "/Author" in info:
            del info["/Author"]
        info["/Creator"] = "pnpgen"
        info["/Producer"] = producer
        info["/CreationDate"] = created
        info["/ModDate"] = modified
        info["/Trapped"] = pikepdf.Name("/False")
        info["/GTS_PDFXVersion"] = PDFX_VERSION
        xmp = pdf.make_stream(xmp_packet(title, author, _pdf_date_to_iso(created), _pdf_date_to_iso(modified),
                                         producer, document_id, lang))
        xmp.Type = pikepdf.Name.Metadata
        xmp.Subtype = pikepdf.Name.XML
        pdf.Root.Metadata = xmp
        pdf.save(path, min_version="1.6", force_version="1.6", deterministic_id=True,
                 compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.preserve)
