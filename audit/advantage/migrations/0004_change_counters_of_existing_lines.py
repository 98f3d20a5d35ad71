"""Count the lines already made into the day's change counters (models.DayChange): one row per
(gaming day, table), its size the lines it has. No stored result exists yet, so any count will do
as the first stamp; the lines' count is the size the read compares with ADVANTAGE_INLINE_LINES."""

from django.db import migrations

SQL = """
INSERT INTO advantage_daychange (gaming_day, table_id, changes, lines)
SELECT gaming_day, table_id, count(*), count(*) FROM advantage_countline GROUP BY gaming_day, table_id
ON CONFLICT (gaming_day, table_id) DO NOTHING
"""


class Migration(migrations.Migration):
    dependencies = [("advantage", "0003_day_results_and_change_counters")]

    operations = [migrations.RunSQL(SQL, migrations.RunSQL.noop)]
