"""How dates, times and numbers are written on the pages in English (docs/floor/words.md).

One format per locale: a date left to Django (``{{ round.gaming_day }}``) reads as the pages
write it everywhere else (``|date:"Y-m-d"``, ``casino/local_time.py``), ISO, not Django's
``Nov. 26, 2026``. A date typed into a form is taken ISO or in the US order (12/31/1970).
"""

DATE_FORMAT = "Y-m-d"
SHORT_DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "F j"
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%m/%d/%Y"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M",
                          "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M"]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
