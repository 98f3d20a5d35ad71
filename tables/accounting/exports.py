"""The accounting app's one writer of CSV and XLSX files: one table (columns, rows) per file, used
by the day's slips and exceptions (pages.py) and the buy-ins and counts (api_drop.py)."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from decimal import Decimal

from django.http import HttpResponse

FORMATS = {"csv": "text/csv; charset=utf-8",
           "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value):
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, Decimal):
        return value
    text = "" if value is None else str(value)
    # A reason or a name is text, never a formula for the spreadsheet that opens it.
    return "'" + text if text.startswith(_FORMULA_START) and not _is_number(text) else text


def _is_number(text: str) -> bool:
    try:
        Decimal(text)
    except ArithmeticError:
        return False
    return True


def rows_csv(columns, rows) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([header for _, header in columns])
    for row in rows:
        writer.writerow([_cell(row.get(key)) for key, _ in columns])
    return out.getvalue().encode("utf-8-sig")


def rows_xlsx(title: str, columns, rows) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    sheet.title = title[:31]
    sheet.append([header for _, header in columns])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([_cell(row.get(key)) for key, _ in columns])
    for index, (key, _) in enumerate(columns, start=1):
        if any(isinstance(r.get(key), Decimal) for r in rows):
            for (cell,) in sheet.iter_rows(min_row=2, min_col=index, max_col=index):
                cell.number_format = "#,##0.00"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def download(fmt: str, name: str, title: str, columns, rows) -> HttpResponse:
    body = rows_xlsx(title, columns, rows) if fmt == "xlsx" else rows_csv(columns, rows)
    response = HttpResponse(body, content_type=FORMATS["xlsx" if fmt == "xlsx" else "csv"])
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
