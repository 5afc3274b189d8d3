"""The example match report's first page as a picture (issue 33): `courtside report` on the ice-hockey example's
log (rules/examples/ice-hockey.jsonl), drawn with pdfium to look at.

    .venv/bin/python docs/screens/make_report.py [--out docs/screens]

Writes ``report-ice-hockey.png``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    out = parser.parse_args().out
    import pypdfium2

    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "report.pdf"
        log = ROOT / "rules" / "examples" / "ice-hockey.jsonl"
        subprocess.run([sys.executable, "-m", "courtside", "report", str(log), "--out", str(pdf), "--tournament",
                        "Spring ice hockey cup (example)"], check=True, cwd=ROOT)
        page = pypdfium2.PdfDocument(str(pdf))[0]
        shot = out / "report-ice-hockey.png"
        page.render(scale=1.3).to_pil().save(shot)
        print(shot)


if __name__ == "__main__":
    main()
